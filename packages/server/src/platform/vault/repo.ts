import type { Db } from '../../db/index.ts';
import type { PrivateRecordsTable } from '../../db/schema.ts';

/**
 * The vault's rows (platform/vault.ts): each user's wrapped data key and his sealed private
 * records. Infrastructure health and activity share; the sealing stays in vault.ts, these
 * statements never see a plaintext.
 */

type RecordKind = PrivateRecordsTable['kind'];

export function findWrappedKey(db: Db, userId: string) {
  return db.selectFrom('health_keys').select(['key_version', 'wrapped_key']).where('user_id', '=', userId).executeTakeFirst();
}

/** Stores the user's first wrapped key; when two first writes race, the one stored first stays. */
export async function insertWrappedKey(db: Db, userId: string, version: number, wrapped: Buffer): Promise<void> {
  await db
    .insertInto('health_keys')
    .values({ user_id: userId, key_version: version, wrapped_key: wrapped })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export function listSealed(db: Db, userId: string, kind: RecordKind) {
  return db
    .selectFrom('private_records')
    .select(['id', 'created_at', 'payload'])
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .execute();
}

export function findSealed(db: Db, userId: string, kind: RecordKind, id: string) {
  return db
    .selectFrom('private_records')
    .select(['id', 'created_at', 'payload'])
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertSealed(
  db: Db,
  r: { id: string; userId: string; kind: RecordKind; created: Date; payload: Buffer },
): Promise<void> {
  await db
    .insertInto('private_records')
    .values({ id: r.id, user_id: r.userId, kind: r.kind, created_at: r.created, payload: r.payload })
    .execute();
}

/** Replaces a record's payload; false when the user has no such record. */
export async function updateSealed(db: Db, userId: string, kind: RecordKind, id: string, payload: Buffer): Promise<boolean> {
  const res = await db
    .updateTable('private_records')
    .set({ payload })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Deletes the user's records of a kind among `ids`; how many went. */
export async function deleteSealed(db: Db, userId: string, kind: RecordKind, ids: readonly string[]): Promise<number> {
  const res = await db
    .deleteFrom('private_records')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Every record, schedule and reminder of the user, and his data key itself, in one transaction. */
export async function deleteEverything(db: Db, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('medication_reminders_sent').where('user_id', '=', userId).execute();
    await trx.deleteFrom('medication_schedules').where('user_id', '=', userId).execute();
    await trx.deleteFrom('private_records').where('user_id', '=', userId).execute();
    await trx.deleteFrom('health_settings').where('user_id', '=', userId).execute();
    await trx.deleteFrom('health_keys').where('user_id', '=', userId).execute();
  });
}

/** The user's time zone for reminders and "today" (UTC until the browser reports one). */
export async function timeZoneOf(db: Db, userId: string): Promise<string> {
  const row = await db.selectFrom('health_settings').select('time_zone').where('user_id', '=', userId).executeTakeFirst();
  return row?.time_zone ?? 'UTC';
}
