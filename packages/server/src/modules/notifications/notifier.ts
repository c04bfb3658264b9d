import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { IncomingCallNotice, NewMatchNotice, NewMessageNotice, Notifier, PushService } from '../../platform/push.ts';
import { findPushTarget } from './repo.ts';

export type { NewMatchNotice, NewMessageNotice, Notifier };

export class PushNotifier implements Notifier {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: { db: Db; push: PushService; log: FastifyBaseLogger }) {}

  newMessage(n: NewMessageNotice): Promise<void> {
    return this.track(n.toUserId, {
      title: n.fromName?.trim() || 'New message',
      body: n.text,
      url: `/messages/${encodeURIComponent(n.conversationId)}`,
      tag: `conversation-${n.conversationId}`,
    });
  }

  newMatch(n: NewMatchNotice): Promise<void> {
    return this.track(n.toUserId, {
      title: "It's a match!",
      body: n.otherName?.trim() ? `You and ${n.otherName.trim()} like each other.` : 'Someone likes you back.',
      url: n.conversationId ? `/messages/${encodeURIComponent(n.conversationId)}` : '/messages',
      tag: n.conversationId ? `match-${n.conversationId}` : 'match',
    });
  }

  incomingCall(n: IncomingCallNotice): Promise<void> {
    const who = n.fromName?.trim() || 'Someone';
    return this.track(n.toUserId, {
      title: `${who} is calling`,
      body: n.kind === 'video' ? 'Incoming video call' : 'Incoming voice call',
      url: n.conversationId ? `/messages/${encodeURIComponent(n.conversationId)}` : '/messages',
      tag: `call-${n.callId}`,
    });
  }

  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private track(userId: string, msg: { title: string; body: string; url: string; tag: string }): Promise<void> {
    if (!this.deps.push.enabled) return Promise.resolve();
    const p = this.notify(userId, msg).catch((err: unknown) => this.deps.log.warn({ err }, 'push notification failed'));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    // The caller (a message send, a selection) never waits on a push service.
    return Promise.resolve();
  }

  private async notify(userId: string, msg: { title: string; body: string; url: string; tag: string }): Promise<void> {
    const row = await findPushTarget(this.deps.db, userId);
    // An open tab sees the event live (and shows a toast): no push then.
    if (!row?.is_active || row.is_online) return;
    if (row.push_notifications_enabled === false) return;
    await this.deps.push.send(userId, msg);
  }
}
