import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type Alert,
  type AlertAction,
  AlertMessages,
  type AlertSeverity,
  type AlertType,
  type Clock,
  canMoveAlert,
  contentFlaggedAlert,
  matchPair,
  mentionsMeetup,
  NEW_ACCOUNT_WINDOW_MS,
  normaliseText,
  SAFETY_REMINDERS,
  SAME_TEXT_RECIPIENTS,
  SAME_TEXT_WINDOW_MS,
  spamSignals,
  suspiciousMessageText,
  suspiciousSeverity,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import type { Bus } from '../../platform/bus.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { ModerationEvent } from '../../platform/moderation/moderation.ts';
import type { Notifier } from '../../platform/push.ts';
import { settingsOf } from '../settings/service.ts';
import * as repo from './repo/alerts.ts';

export interface AlertsServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  log?: { warn(obj: object, msg: string): void };
  /** Push (and mail) for an alert to a man with no open tab; optional in unit setups. */
  notifier?: Pick<Notifier, 'safetyAlert'> | undefined;
}

/** What raises an alert for one member. `dedupeKey`: one alert per cause, a repeat raises nothing. */
export interface RaiseAlert {
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  contentId?: string | null;
  actions?: AlertAction[];
  dedupeKey?: string;
}

const OWN_LIST = 200;
/** How many of a sender's last hour of texts are compared for copies: past this he is a blast anyway. */
const SAME_TEXT_SCAN = 500;

function present(r: repo.AlertRow): Alert {
  return {
    id: r.id,
    type: r.type,
    severity: r.severity,
    title: r.title,
    message: r.message,
    state: r.state,
    isRead: r.state !== 'unread',
    isResolved: r.state === 'resolved',
    contentId: r.content_id,
    actions: r.actions,
    createdAt: r.created_at.toISOString(),
  };
}

/** The two actions about another man an alert offers. */
export const aboutHim = (userId: string): AlertAction[] => [
  { id: 'block', label: 'Block him', type: 'block', severity: 'high', userId },
  { id: 'report', label: 'Report him', type: 'report', severity: 'medium', userId },
];

/**
 * Safety alerts (spec sections 3, 4). Only events raise them, through `raise`
 * (a report made, a reviewed report, a message matching a spam pattern; the photo moderation
 * will raise content_flagged the same way); there is no timer. Each new alert goes to the
 * member's open tabs over the live channel, or by push (and mail) when he has none, as his
 * safety notification switches allow.
 */
export class AlertsService {
  constructor(private readonly deps: AlertsServiceDeps) {}

  /** Raises an alert for `userId`; null when its dedupe key already raised one. */
  async raise(userId: string, input: RaiseAlert): Promise<Alert | null> {
    const at = this.deps.clock.now();
    const id = randomUUID();
    const inserted = await repo.insertAlert(this.deps.db, {
      id,
      user_id: userId,
      type: input.type,
      severity: input.severity,
      title: input.title,
      message: input.message,
      content_id: input.contentId ?? null,
      actions: JSON.stringify(input.actions ?? []),
      dedupe_key: input.dedupeKey ?? null,
      created_at: at,
      updated_at: at,
    });
    if (!inserted) return null;
    const alert = present((await repo.findAlert(this.deps.db, id))!);
    await this.deps.bus.publish([userId], { type: 'alert', alert });
    void this.deps.notifier?.safetyAlert({
      toUserId: userId,
      alertId: alert.id,
      severity: alert.severity,
      title: alert.title,
      message: alert.message,
    });
    return alert;
  }

  async list(actor: Actor): Promise<Alert[]> {
    requireAccess(actor, 'support.use');
    return (await repo.listAlertsOf(this.deps.db, actor.id, OWN_LIST)).map(present);
  }

  /** He marks his alert read, resolved (also read) or dismissed (gone from his list). */
  async setState(actor: Actor, id: string, state: 'read' | 'resolved' | 'dismissed'): Promise<Alert> {
    requireAccess(actor, 'support.use');
    const row = await repo.findAlert(this.deps.db, id);
    // Another member's alert, or one he dismissed, is not found: ids tell nothing.
    if (!row || row.user_id !== actor.id || row.state === 'dismissed') throw notFound(AlertMessages.notFound);
    if (row.state === state) return present(row);
    if (!canMoveAlert(row.state, state) || !(await repo.setAlertState(this.deps.db, id, row.state, state, this.deps.clock.now())))
      throw conflict(AlertMessages.badState);
    return present((await repo.findAlert(this.deps.db, id))!);
  }

  /**
   * safety_reminder before a first meetup: the first message between two men that talks about
   * meeting (core's MEETUP_PHRASES) gives both the public-place advice, once per pair, to each who
   * keeps publicPlaceReminders on.
   * Never fails the send: a failure is logged.
   */
  private async meetupReminder(msg: { id: string; senderId: string; receiverId: string; text: string }): Promise<void> {
    try {
      if (!mentionsMeetup(msg.text)) return;
      const dedupeKey = `meetup:${matchPair(msg.senderId, msg.receiverId).join(':')}`;
      for (const userId of [msg.senderId, msg.receiverId])
        if (await this.wants(userId, 'publicPlaceReminders'))
          await this.raise(userId, {
            type: 'safety_reminder',
            severity: 'low',
            ...SAFETY_REMINDERS.chat,
            contentId: msg.id,
            dedupeKey,
          });
    } catch (err) {
      this.deps.log?.warn({ err }, 'meetup reminder failed');
    }
  }

  /**
   * Whether he keeps a reminder on (meetupSafety.publicPlaceReminders, locationSafety
   * .locationReminders; both on by default, docs/settings.md).
   */
  async wants(userId: string, reminder: 'publicPlaceReminders' | 'locationReminders'): Promise<boolean> {
    const s = (await settingsOf(this.deps.db, userId))?.safety;
    if (!s) return true;
    return reminder === 'publicPlaceReminders' ? s.meetupSafety.publicPlaceReminders : s.locationSafety.locationReminders;
  }

  /**
   * content_flagged: moderation held one of his photos for staff, or staff
   * removed it; the alert says why and opens the photo in his profile editor. When staff approve
   * a held photo, its alert is resolved (the photo is visible again; nothing is left to do).
   * Never throws: a failure is logged.
   */
  async onModeration(e: ModerationEvent): Promise<void> {
    const { item } = e;
    try {
      const heldKey = `photo:${item.content_id}:held`;
      if (e.kind === 'approved') {
        const alert = await repo.resolveByKey(this.deps.db, item.user_id, heldKey, this.deps.clock.now());
        if (alert) await this.deps.bus.publish([item.user_id], { type: 'refetch', of: 'alerts' });
        return;
      }
      const reasons = item.flagged_reason ? item.flagged_reason.split(', ') : [];
      const words = contentFlaggedAlert(e.kind, item.content_type, reasons);
      // A removed photo is gone: its action opens the editor to add another.
      const review: AlertAction = {
        id: 'review_photo',
        label: e.kind === 'held' ? 'Review photo' : 'Open my photos',
        type: 'review_photo',
        severity: 'low',
      };
      if (e.kind === 'rejected') await repo.resolveByKey(this.deps.db, item.user_id, heldKey, this.deps.clock.now());
      await this.raise(item.user_id, {
        type: 'content_flagged',
        ...words,
        contentId: item.content_id,
        actions: item.content_type === 'profile_photo' ? [review] : [],
        dedupeKey: e.kind === 'held' ? heldKey : `photo:${item.content_id}:rejected`,
      });
    } catch (err) {
      this.deps.log?.warn({ err }, 'content_flagged alert failed');
    }
  }

  /**
   * After a message is sent: warns the receiver once about this sender when the message matches
   * a spam or scam pattern (core's spamSignals) or the sender has open reports from several
   * members. Never fails the send: a failure is logged.
   */
  async screenMessage(msg: { id: string; senderId: string; receiverId: string; text: string }): Promise<void> {
    await this.meetupReminder(msg);
    try {
      const dedupeKey = `sender:${msg.senderId}`;
      const now = this.deps.clock.now();
      // One round trip for the common case: warned already, or the facts every rule but the copies reads.
      const stats = await repo.senderStats(
        this.deps.db,
        msg.senderId,
        msg.receiverId,
        new Date(now.getTime() - NEW_ACCOUNT_WINDOW_MS),
        dedupeKey,
      );
      if (stats.alerted) return;
      const text = normaliseText(msg.text);
      // Copies of one text to SAME_TEXT_RECIPIENTS men within the hour need that many recipients
      // within the day (the hour lies inside it): below that, his texts are not read at all.
      const sameTextRecipients =
        text && stats.recipientsToday >= SAME_TEXT_RECIPIENTS
          ? new Set(
              (
                await repo.textsSentSince(
                  this.deps.db,
                  msg.senderId,
                  new Date(now.getTime() - SAME_TEXT_WINDOW_MS),
                  SAME_TEXT_SCAN,
                )
              )
                .filter((m) => normaliseText(m.content) === text)
                .map((m) => m.receiver_id),
            ).size
          : 0;
      const signals = spamSignals({
        text: msg.text,
        isMatch: stats.isMatch,
        accountAgeMs: now.getTime() - stats.accountCreatedAt.getTime(),
        sameTextRecipients,
        recipientsToday: stats.recipientsToday,
        openReporters: stats.openReporters,
      });
      if (signals.length === 0) return;
      await this.raise(msg.receiverId, {
        type: 'suspicious_behavior',
        severity: suspiciousSeverity(signals),
        title: 'Someone messaging you may be a scammer',
        message: suspiciousMessageText(signals),
        contentId: msg.id,
        actions: aboutHim(msg.senderId),
        dedupeKey,
      });
    } catch (err) {
      this.deps.log?.warn({ err }, 'message screening failed');
    }
  }
}
