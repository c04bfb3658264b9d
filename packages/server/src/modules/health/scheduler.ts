import {
  type Clock,
  DAY,
  localTimeIn,
  type MedicationData,
  type MedicationLogData,
  MINUTE,
  nextReminderAt,
  REMINDER_WINDOW_MINUTES,
} from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { IntervalJob } from '../../platform/jobs.ts';
import type { PushMessage, PushService } from '../../platform/push.ts';
import { timeZoneOf, type Vault } from '../../platform/vault.ts';
import * as repo from './repo.ts';

export interface ReminderSchedulerDeps {
  db: Db;
  clock: Clock;
  vault: Vault;
  push: Pick<PushService, 'send'>;
  log?: FastifyBaseLogger | undefined;
}

export const TICK_INTERVAL_MS = MINUTE;
/** Queue rows handled per tick; the rest wait for the next minute. */
const BATCH = 500;
/** Reminder delivery rows are kept this long, then pruned (they are metadata). */
const SENT_RETENTION_MS = 3 * DAY;

/**
 * Lock screens are seen by others: the notification never names the medication (it is health
 * data), it only says a reminder is due and opens /health.
 */
export const REMINDER_PUSH: Omit<PushMessage, 'tag'> = {
  title: 'Medication reminder',
  body: "It's time for your medication. Tap to mark it taken.",
  url: '/health',
};

/**
 * The Web Push side of medication reminders (spec section 4). Every minute it
 * takes the queue rows whose reminder instant has come (medication_schedules.next_due_at), and
 * for each dose still untaken within its ±60-minute window inserts (medication, dose date) into
 * medication_reminders_sent with ON CONFLICT DO NOTHING: only the instance whose insert
 * succeeded sends, so several instances (or overlapping ticks) remind once. The row then moves
 * to the next day's instant. A server that was down longer than the window skips the stale dose.
 */
export class ReminderScheduler {
  private readonly job: IntervalJob;

  constructor(private readonly deps: ReminderSchedulerDeps) {
    this.job = new IntervalJob(() => this.tick(), { name: 'reminder tick', log: deps.log, everyMs: TICK_INTERVAL_MS });
  }

  start(intervalMs?: number): void {
    this.job.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** One pass over the due queue; returns how many reminders this call sent. */
  async tick(): Promise<{ sent: number }> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const due = await repo.dueReminders(db, now, BATCH);
    let sent = 0;
    for (const row of due) {
      try {
        if (await this.handle(row, now)) sent += 1;
      } catch (err) {
        this.deps.log?.error({ err, medicationId: row.medication_id }, 'medication reminder failed');
      }
    }
    await repo.pruneRemindersSent(db, new Date(now.getTime() - SENT_RETENTION_MS));
    return { sent };
  }

  private async handle(row: { medication_id: string; user_id: string; next_due_at: Date }, now: Date): Promise<boolean> {
    const { db, vault } = this.deps;
    const userId = row.user_id;
    const med = await vault.get<MedicationData>(db, userId, 'medication', row.medication_id);
    if (!med?.data.isActive || med.data.reminderType !== 'daily') {
      await repo.unscheduleMedication(db, row.medication_id);
      return false;
    }
    const timeZone = await timeZoneOf(db, userId);
    const dueAt = row.next_due_at;
    let sent = false;
    if (now.getTime() - dueAt.getTime() <= REMINDER_WINDOW_MINUTES * MINUTE) {
      const dose = localTimeIn(dueAt, timeZone).date;
      const logs = await vault.list<MedicationLogData>(db, userId, 'medication_log');
      const taken = logs.some((l) => l.data.medicationId === med.id && l.data.date === dose && l.data.taken);
      if (!taken && (await this.mayNotify(userId))) {
        if (await repo.claimReminder(db, { medicationId: med.id, doseDate: dose, userId, at: now })) {
          await this.deps.push.send(userId, { ...REMINDER_PUSH, tag: `medication-${med.id}` });
          sent = true;
        }
      }
    }
    // Next: the first instant after this one whose window is still open.
    const from = new Date(Math.max(dueAt.getTime(), now.getTime() - REMINDER_WINDOW_MINUTES * MINUTE));
    const next = nextReminderAt(med.data.reminderTime, timeZone, from);
    // Compare-and-set: an instance that already moved the row is not overridden.
    await repo.advanceReminder(db, med.id, dueAt, next);
    return sent;
  }

  /** Health on, account active, pushes allowed (the push channel and the health reminders kind, docs/settings.md). */
  private async mayNotify(userId: string): Promise<boolean> {
    const row = await repo.findReminderTarget(this.deps.db, userId);
    // Null switches: no settings row yet, the defaults (on).
    return Boolean(
      row?.is_active &&
        row.health_enabled &&
        row.push_notifications_enabled !== false &&
        row.notify_health_reminders_push !== false,
    );
  }
}
