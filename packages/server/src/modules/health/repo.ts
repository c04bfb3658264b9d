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
    await db.deleteFrom('medication_schedules').where('medication_id', '=', med.id).execute();
    return;
  }
  const next = nextReminderAt(med.reminderTime, timeZone, new Date(now.getTime() - REMINDER_WINDOW_MINUTES * MINUTE));
  await db
    .insertInto('medication_schedules')
    .values({ medication_id: med.id, user_id: userId, next_due_at: next })
    .onConflict((oc) => oc.column('medication_id').doUpdateSet({ next_due_at: next }))
    .execute();
}
