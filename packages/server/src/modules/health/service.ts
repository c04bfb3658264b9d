import {
  type Actor,
  type Clock,
  type createMedicationBody,
  type createScreeningBody,
  doseDate,
  dueMedications,
  type HealthSummary,
  localTimeIn,
  MEDICATION_LOGS_LIMIT,
  MEDICATIONS_LIMIT,
  type Medication,
  type MedicationData,
  type MedicationLog,
  type MedicationLogData,
  type PrivateDataExport,
  SCREENINGS_LIMIT,
  type Screening,
  type ScreeningData,
  screeningStatus,
  screeningSuggestion,
  type updateMedicationBody,
} from '@fmk/core';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Storage } from '../../platform/storage.ts';
import { OwnRecords, timeZoneOf, type Vault } from '../../platform/vault.ts';
import { activityLogsOf, contactPhotoKeys, contactsOf } from '../activity/service.ts';
import {
  allMedicationLogs,
  allMedications,
  allScreenings,
  lockUser,
  presentMedication,
  presentScreening,
  saveTimeZone,
  scheduleMedication,
} from './repo.ts';

export interface HealthServiceDeps {
  db: Db;
  clock: Clock;
  vault: Vault;
  /** Contacts' sealed photo files, removed with the rest on delete-all. */
  storage: Storage;
}

export const MEDICATION_NOT_FOUND = 'Medication not found';
export const SCREENING_NOT_FOUND = 'Screening not found';
export const POST_EXPOSURE_HOURS_REQUIRED = 'Enter how many hours after exposure to take it.';

/**
 * Medications, reminders and STI screenings (spec sections 3, 4, 9). Only
 * the owner reads his records: every query is by the caller's own id, for every role.
 */
export class HealthService {
  private readonly medications: OwnRecords<MedicationData>;
  private readonly screenings: OwnRecords<ScreeningData>;

  constructor(private readonly deps: HealthServiceDeps) {
    this.medications = new OwnRecords(deps.vault, 'medication', MEDICATION_NOT_FOUND);
    this.screenings = new OwnRecords(deps.vault, 'screening', SCREENING_NOT_FOUND);
  }

  /** The browser's zone: reminders are pushed, and "today" is decided, on its wall clock. */
  async setTimeZone(userId: string, timeZone: string): Promise<void> {
    const { db, clock, vault } = this.deps;
    const now = clock.now();
    const previous = await timeZoneOf(db, userId);
    await saveTimeZone(db, userId, timeZone, now);
    if (previous === timeZone) return;
    for (const m of await allMedications(db, vault, userId)) await scheduleMedication(db, userId, m, timeZone, now);
  }

  async listMedications(actor: Actor): Promise<Medication[]> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    return (await allMedications(this.deps.db, this.deps.vault, userId)).slice(0, MEDICATIONS_LIMIT);
  }

  async createMedication(actor: Actor, body: z.infer<typeof createMedicationBody>): Promise<Medication> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    const data = checkedMedication(body);
    const { db, vault, clock } = this.deps;
    const med = await db.transaction().execute(async (trx) => {
      const rec = await vault.insert(trx, userId, 'medication', data);
      await scheduleMedication(trx, userId, { id: rec.id, ...data }, await timeZoneOf(trx, userId), clock.now());
      return rec;
    });
    return presentMedication(med);
  }

  async updateMedication(actor: Actor, id: string, patch: z.infer<typeof updateMedicationBody>): Promise<Medication> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    const { db, vault, clock } = this.deps;
    return db.transaction().execute(async (trx) => {
      const rec = await this.medications.get(trx, userId, id);
      const data = checkedMedication({ ...rec.data, ...patch });
      await vault.update(trx, userId, 'medication', id, data);
      await scheduleMedication(trx, userId, { id, ...data }, await timeZoneOf(trx, userId), clock.now());
      return presentMedication({ ...rec, data });
    });
  }

  /** Deletes the medication and its logs (its schedule and reminder rows go with it). */
  async deleteMedication(actor: Actor, id: string): Promise<void> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    const { db, vault } = this.deps;
    await db.transaction().execute(async (trx) => {
      await this.medications.delete(trx, userId, id);
      const logs = await allMedicationLogs(trx, vault, userId);
      await vault.delete(
        trx,
        userId,
        'medication_log',
        logs.filter((l) => l.medicationId === id).map((l) => l.id),
      );
    });
  }

  /**
   * Marks the current dose taken (spec section 4: updates today's log or creates one). The dose
   * is today's, or across midnight the one whose ±60-minute window is open.
   */
  async markTaken(actor: Actor, id: string, taken: boolean): Promise<MedicationLog> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    const { db, vault, clock } = this.deps;
    return db.transaction().execute(async (trx) => {
      // The user row's lock orders concurrent marks, so a dose never gets two logs.
      await lockUser(trx, userId);
      const med = await this.medications.get(trx, userId, id);
      const now = clock.now();
      const date = doseDate(med.data.reminderTime, localTimeIn(now, await timeZoneOf(trx, userId)));
      const data: MedicationLogData = { medicationId: id, date, taken, takenAt: taken ? now.toISOString() : null };
      const existing = (await allMedicationLogs(trx, vault, userId)).find((l) => l.medicationId === id && l.date === date);
      if (existing) {
        await vault.update(trx, userId, 'medication_log', existing.id, data);
        return { id: existing.id, ...data };
      }
      const rec = await vault.insert(trx, userId, 'medication_log', data);
      return { id: rec.id, ...data };
    });
  }

  async listLogs(actor: Actor): Promise<MedicationLog[]> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    return (await allMedicationLogs(this.deps.db, this.deps.vault, userId)).slice(0, MEDICATION_LOGS_LIMIT);
  }

  async listScreenings(actor: Actor): Promise<Screening[]> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    return (await allScreenings(this.deps.db, this.deps.vault, userId)).slice(0, SCREENINGS_LIMIT);
  }

  async createScreening(actor: Actor, body: z.infer<typeof createScreeningBody>): Promise<Screening> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    const data: ScreeningData = { date: body.date, tests: [...new Set(body.tests)], results: body.results };
    return presentScreening(await this.deps.vault.insert(this.deps.db, userId, 'screening', data));
  }

  async updateScreening(actor: Actor, id: string, body: z.infer<typeof createScreeningBody>): Promise<Screening> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    const { db, vault } = this.deps;
    const rec = await this.screenings.get(db, userId, id);
    const data: ScreeningData = { date: body.date, tests: [...new Set(body.tests)], results: body.results };
    await vault.update(db, userId, 'screening', id, data);
    return presentScreening({ ...rec, data });
  }

  async deleteScreening(actor: Actor, id: string): Promise<void> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    await this.screenings.delete(this.deps.db, userId, id);
  }

  /** The red dot and /track, decided in the user's zone: due reminders, overdue screening, suggestion. */
  async summary(actor: Actor): Promise<HealthSummary> {
    requireAccess(actor, 'health.use');
    const userId = actor.id;
    const { db, vault, clock } = this.deps;
    const timeZone = await timeZoneOf(db, userId);
    const now = localTimeIn(clock.now(), timeZone);
    const [meds, logs, screenings, activities] = await Promise.all([
      allMedications(db, vault, userId),
      allMedicationLogs(db, vault, userId),
      allScreenings(db, vault, userId),
      activityLogsOf(db, vault, userId),
    ]);
    const screening = screeningStatus(screenings, now.date);
    const lastScreening = screening.latest;
    return {
      today: now.date,
      timeZone,
      dueMedicationIds: dueMedications(meds, logs, now).map((m) => m.id),
      screeningOverdue: screening.overdue,
      lastScreening,
      suggestion: screeningSuggestion(activities, lastScreening),
    };
  }

  /** Everything the user has in health and activity, whatever the switches say: an export leaves nothing out. */
  async exportAll(userId: string): Promise<PrivateDataExport> {
    const { db, vault, clock } = this.deps;
    const activityLogs = await activityLogsOf(db, vault, userId);
    return {
      exportedAt: clock.now().toISOString(),
      medications: await allMedications(db, vault, userId),
      medicationLogs: await allMedicationLogs(db, vault, userId),
      screenings: await allScreenings(db, vault, userId),
      contacts: await contactsOf(db, vault, userId, activityLogs),
      activityLogs,
    };
  }

  async deleteAll(userId: string): Promise<void> {
    const { db, vault, storage } = this.deps;
    const photos = await contactPhotoKeys(db, vault, userId);
    await vault.deleteAll(db, userId);
    // Without the key the sealed files are unreadable already; they go too, so nothing is left behind.
    await Promise.all(photos.map((key) => storage.delete(key).catch(() => undefined)));
  }
}

/** On-demand (post-exposure) medications need their hours; daily ones keep none. */
function checkedMedication(m: MedicationData): MedicationData {
  if (m.reminderType === 'on-demand' && m.postExposureHours === null) {
    throw badRequest(POST_EXPOSURE_HOURS_REQUIRED, { postExposureHours: 'required' });
  }
  return {
    name: m.name,
    reminderTime: m.reminderTime,
    reminderType: m.reminderType,
    postExposureHours: m.reminderType === 'daily' ? null : m.postExposureHours,
    isActive: m.isActive,
  };
}
