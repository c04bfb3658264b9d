import {
  type Medication,
  type MedicationData,
  type MedicationLog,
  type MedicationLogData,
  MINUTE,
  nextReminderAt,
  REMINDER_WINDOW_MINUTES,
  type Screening,
  type ScreeningData,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { StoredRecord, Vault } from '../../platform/vault.ts';

const newestCreatedFirst = (a: { created: string; id: string }, b: { created: string; id: string }) =>
  b.created.localeCompare(a.created) || a.id.localeCompare(b.id);

export const presentMedication = (r: StoredRecord<MedicationData>): Medication => ({
  id: r.id,
  created: r.created.toISOString(),
  ...r.data,
});

export async function allMedications(db: Db, vault: Vault, userId: string): Promise<Medication[]> {
  return (await vault.list<MedicationData>(db, userId, 'medication')).map(presentMedication).sort(newestCreatedFirst);
}

/** Medication logs, date descending (then the latest taken first). */
export async function allMedicationLogs(db: Db, vault: Vault, userId: string): Promise<MedicationLog[]> {
  const rows = await vault.list<MedicationLogData>(db, userId, 'medication_log');
  return rows
    .map((r) => ({ id: r.id, ...r.data }))
    .sort((a, b) => b.date.localeCompare(a.date) || (b.takenAt ?? '').localeCompare(a.takenAt ?? '') || a.id.localeCompare(b.id));
}

export const presentScreening = (r: StoredRecord<ScreeningData>): Screening => ({
  id: r.id,
  created: r.created.toISOString(),
  ...r.data,
});

export async function allScreenings(db: Db, vault: Vault, userId: string): Promise<Screening[]> {
  return (await vault.list<ScreeningData>(db, userId, 'screening'))
    .map(presentScreening)
    .sort((a, b) => b.date.localeCompare(a.date) || newestCreatedFirst(a, b));
}

/**
 * Keeps the scheduler's queue in step with a medication: an active daily one is queued at its
 * first reminder whose ±60-minute window has not closed yet; any other is taken off the queue.
 */
export async function scheduleMedication(
  db: Db,
  userId: string,
  med: { id: string } & Pick<MedicationData, 'isActive' | 'reminderType' | 'reminderTime'>,
  timeZone: string,
  now: Date,
): Promise<void> {
  if (!med.isActive || med.reminderType !== 'daily') {
    await unscheduleMedication(db, med.id);
    return;
  }
  const next = nextReminderAt(med.reminderTime, timeZone, new Date(now.getTime() - REMINDER_WINDOW_MINUTES * MINUTE));
  await db
    .insertInto('medication_schedules')
    .values({ medication_id: med.id, user_id: userId, next_due_at: next })
    .onConflict((oc) => oc.column('medication_id').doUpdateSet({ next_due_at: next }))
    .execute();
}

/** Takes a medication off the scheduler's queue. */
export async function unscheduleMedication(db: Db, medicationId: string): Promise<void> {
  await db.deleteFrom('medication_schedules').where('medication_id', '=', medicationId).execute();
}

/** The browser's time zone, kept in health_settings (created on first use). */
export async function saveTimeZone(db: Db, userId: string, timeZone: string, at: Date): Promise<void> {
  await db
    .insertInto('health_settings')
    .values({ user_id: userId, time_zone: timeZone, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ time_zone: timeZone, updated_at: at }))
    .execute();
}

/** Locks the user's row for the transaction: his health writes go one at a time. */
export async function lockUser(trx: Db, userId: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

// ---------------------------------------------------------------------------------------------
// The reminder scheduler's queue (scheduler.ts).

/** Queued reminders due at `now`, soonest first. */
export function dueReminders(db: Db, now: Date, limit: number) {
  return db
    .selectFrom('medication_schedules')
    .select(['medication_id', 'user_id', 'next_due_at'])
    .where('next_due_at', '<=', now)
    .orderBy('next_due_at')
    .limit(limit)
    .execute();
}

/** Forgets the reminders sent before `before` (their doses are long past). */
export async function pruneRemindersSent(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('medication_reminders_sent').where('sent_at', '<', before).execute();
}

/**
 * Claims one dose's reminder: true for the first caller only (one row per medication and dose
 * date), so two instances never push the same dose twice.
 */
export async function claimReminder(
  db: Db,
  r: { medicationId: string; doseDate: string; userId: string; at: Date },
): Promise<boolean> {
  const claimed = await db
    .insertInto('medication_reminders_sent')
    .values({ medication_id: r.medicationId, dose_date: r.doseDate, user_id: r.userId, sent_at: r.at })
    .onConflict((oc) => oc.columns(['medication_id', 'dose_date']).doNothing())
    .returning('medication_id')
    .executeTakeFirst();
  return Boolean(claimed);
}

/** Moves a queued reminder from `dueAt` to `next`, unless another instance already moved it. */
export async function advanceReminder(db: Db, medicationId: string, dueAt: Date, next: Date): Promise<void> {
  await db
    .updateTable('medication_schedules')
    .set({ next_due_at: next })
    .where('medication_id', '=', medicationId)
    .where('next_due_at', '=', dueAt)
    .execute();
}

/** What decides whether a reminder may be pushed: account active, health on, pushes and health-reminder pushes allowed. */
export function findReminderTarget(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select([
      'users.is_active',
      'users.health_enabled',
      'user_settings.push_notifications_enabled',
      'user_settings.notify_health_reminders_push',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}
