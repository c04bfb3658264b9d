import {
  type ActivityLog,
  type ActivityLogData,
  type Contact,
  type ContactData,
  contactFigures,
  type StatsActivity,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { StoredRecord, Vault } from '../../platform/vault.ts';

/**
 * Contacts and activity logs, read through the vault (decrypted here, ordered by the dates inside
 * the payloads). Shared with the health module for the screening suggestion and the export.
 */
const byDateDesc = (a: { date: string; created: string }, b: { date: string; created: string }) =>
  a.date === b.date ? b.created.localeCompare(a.created) : b.date.localeCompare(a.date);

export function presentLog(r: StoredRecord<ActivityLogData>): ActivityLog {
  return { id: r.id, created: r.created.toISOString(), ...r.data };
}

/** Every activity log of the user, newest date first. */
export async function allActivityLogs(db: Db, vault: Vault, userId: string): Promise<ActivityLog[]> {
  const rows = await vault.list<ActivityLogData>(db, userId, 'activity_log');
  return rows.map(presentLog).sort(byDateDesc);
}

/**
 * What a contact's encrypted payload holds: the contract's fields and, once a photo is uploaded,
 * the storage key of its sealed file (never sent: the photo is served by id to the owner only).
 */
export type StoredContact = ContactData & { photoKey?: string | null };

export function presentContact(r: StoredRecord<StoredContact>, logs: readonly StatsActivity[]): Contact {
  const { photoKey: _private, ...data } = r.data;
  return { id: r.id, created: r.created.toISOString(), ...data, ...contactFigures(r.id, logs) };
}

/** Every contact of the user, newest first, with lastActivity/totalActivities/avgRating from the log. */
export async function allContacts(db: Db, vault: Vault, userId: string, logs?: readonly ActivityLog[]): Promise<Contact[]> {
  const rows = await vault.list<StoredContact>(db, userId, 'contact');
  if (rows.length === 0) return [];
  const history = logs ?? (await allActivityLogs(db, vault, userId));
  return rows
    .map((r) => presentContact(r, history))
    .sort((a, b) => b.created.localeCompare(a.created) || a.id.localeCompare(b.id));
}

/** Whether the two have matched or share a conversation: someone he knows on FMK. */
export async function knowsOnFmk(db: Db, userId: string, otherId: string): Promise<boolean> {
  const [a, b] = userId < otherId ? [userId, otherId] : [otherId, userId];
  const pair = (t: 'matches' | 'conversations') => db.selectFrom(t).select('id').where('user_a', '=', a).where('user_b', '=', b);
  return Boolean(await pair('matches').unionAll(pair('conversations')).executeTakeFirst());
}
