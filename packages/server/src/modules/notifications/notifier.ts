import {
  can,
  EMAIL_KINDS,
  type NotificationChannel,
  type NotificationKind,
  notificationAllowed,
  type StoredSettings,
} from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { loadActor } from '../../platform/access.ts';
import { composeMail } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type {
  IncomingCallNotice,
  NewLikeNotice,
  NewMatchNotice,
  NewMessageNotice,
  Notifier,
  PushMessage,
  PushService,
  SafetyAlertNotice,
} from '../../platform/push.ts';
import { storedFromRow } from '../../platform/settings/columns.ts';
import { findPushTarget } from './repo.ts';

export type { NewMatchNotice, NewMessageNotice, Notifier };

/** A kind reaches a channel when both his channel switch and that kind's switch on it are on. */
export function allows(s: StoredSettings, kind: NotificationKind, channel: NotificationChannel): boolean {
  return notificationAllowed(s.notifications, kind, channel);
}

type Push = Required<PushMessage>;

interface Notice {
  kind: NotificationKind;
  /** The push, or how to build it for him once he is known to want it (a like asks his tier). */
  push: Push | ((userId: string) => Promise<Push>);
  /** Kinds in EMAIL_KINDS: the mail, built for his address. Its subject never says what the app is for. */
  mail?: (to: string) => ReturnType<typeof composeMail>;
}

/**
 * Push and email for events, each only where his settings allow that kind on that channel
 * (docs/settings.md): a push only when he has no open tab (the tab shows it live); a mail only
 * to a confirmed address, for the kinds mail carries.
 */
export class PushNotifier implements Notifier {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: { db: Db; push: PushService; log: FastifyBaseLogger; mail?: Mailer; publicUrl?: string }) {}

  newMessage(n: NewMessageNotice): Promise<void> {
    return this.track(n.toUserId, {
      kind: 'messages',
      push: {
        title: n.fromName?.trim() || 'New message',
        body: n.text,
        url: `/messages/${encodeURIComponent(n.conversationId)}`,
        tag: `conversation-${n.conversationId}`,
      },
    });
  }

  newMatch(n: NewMatchNotice): Promise<void> {
    const url = n.conversationId ? `/messages/${encodeURIComponent(n.conversationId)}` : '/messages';
    return this.track(n.toUserId, {
      kind: 'matches',
      push: {
        title: "It's a match!",
        body: n.otherName?.trim() ? `You and ${n.otherName.trim()} like each other.` : 'Someone likes you back.',
        url,
        tag: n.conversationId ? `match-${n.conversationId}` : 'match',
      },
      mail: (to) =>
        composeMail(to, {
          subject: 'Something new is waiting for you',
          paragraphs: ['Hi,', 'You have a new match. Say hello while the moment is fresh.'],
          action: { label: 'Open the app', url: `${this.deps.publicUrl ?? ''}${url}` },
          footer: ['You get this because match emails are on. Turn them off in Settings, Notifications.'],
        }),
    });
  }

  incomingCall(n: IncomingCallNotice): Promise<void> {
    const who = n.fromName?.trim() || 'Someone';
    // A call rings under his message switches: it is someone he talks to, reaching him.
    return this.track(n.toUserId, {
      kind: 'messages',
      push: {
        title: `${who} is calling`,
        body: n.kind === 'video' ? 'Incoming video call' : 'Incoming voice call',
        url: n.conversationId ? `/messages/${encodeURIComponent(n.conversationId)}` : '/messages',
        tag: `call-${n.callId}`,
      },
    });
  }

  /**
   * A new like: who it is when he may see who likes him (likes.seeIdentities, Premium and up),
   * else only how many wait. One notification (tag 'likes') that each new like replaces.
   */
  newLike(n: NewLikeNotice): Promise<void> {
    const name = n.fromName?.trim();
    const waiting = n.count > 1 ? `${n.count} people are waiting for your answer.` : 'Someone is waiting for your answer.';
    return this.track(n.toUserId, {
      kind: 'likes',
      push: async (userId) => {
        const actor = await loadActor(this.deps.db, userId);
        const reveal = Boolean(name && actor && can(actor, 'likes.seeIdentities').allowed);
        return reveal
          ? { title: `${name} likes you`, body: 'Choose back to match.', url: '/likes', tag: 'likes' }
          : { title: 'Someone likes you', body: waiting, url: '/likes', tag: 'likes' };
      },
    });
  }

  /**
   * A safety alert: pushed as the alert says it (its words never name health data); mailed when
   * it asks something of him (medium and high: a possible scammer, a photo held, an exact
   * location, a missed check-in), never for the low reminders, which would drown the rest.
   */
  safetyAlert(n: SafetyAlertNotice): Promise<void> {
    return this.track(n.toUserId, {
      kind: 'safety',
      push: { title: n.title, body: n.message, url: '/safety', tag: `alert-${n.alertId}` },
      ...(n.severity === 'low'
        ? {}
        : {
            mail: (to: string) =>
              composeMail(to, {
                subject: 'Something on your account needs a look',
                paragraphs: ['Hi,', n.title, n.message],
                action: { label: 'Open the Safety centre', url: `${this.deps.publicUrl ?? ''}/safety` },
                footer: ['You get this because safety emails are on. Turn them off in Settings, Notifications.'],
              }),
          }),
    });
  }

  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private track(userId: string, notice: Notice): Promise<void> {
    const p = this.notify(userId, notice).catch((err: unknown) => this.deps.log.warn({ err }, 'notification failed'));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    // The caller (a message send, a selection) never waits on a push service or a mail server.
    return Promise.resolve();
  }

  private async notify(userId: string, notice: Notice): Promise<void> {
    const row = await findPushTarget(this.deps.db, userId);
    // An open tab sees the event live (and shows a toast): nothing else then.
    if (!row?.is_active || row.is_online) return;
    const settings = storedFromRow(row.settings_row ?? {}, null);
    if (
      this.deps.mail &&
      notice.mail &&
      EMAIL_KINDS.includes(notice.kind) &&
      row.email_verified_at &&
      allows(settings, notice.kind, 'email')
    ) {
      this.deps.mail.send(notice.mail(row.email));
    }
    if (!this.deps.push.enabled || !allows(settings, notice.kind, 'push')) return;
    await this.deps.push.send(userId, typeof notice.push === 'function' ? await notice.push(userId) : notice.push);
  }
}
