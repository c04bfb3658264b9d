import type { Selectable } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { DataExportsTable } from '../../../db/schema.ts';

/**
 * SQL of 'Download my data' and 'Delete my account': the archives' rows, and the read of every
 * row that names the user. That read is one snapshot across the features' tables on purpose: the
 * archive's categories then agree with each other (a message and its conversation, a photo and
 * its file), and erasure lists the files to remove from the same read. Writes to other features'
 * tables are not here: erasure deletes the user's row and the rest goes by the foreign keys' cascade,
 * or through the owning feature's service.
 */

export type ExportRow = Selectable<DataExportsTable>;

export async function insertExport(db: Db, e: { id: string; userId: string; now: Date }): Promise<void> {
  await db.insertInto('data_exports').values({ id: e.id, user_id: e.userId, status: 'building', created_at: e.now }).execute();
}

/** The one building, else the newest. */
export function latestExport(db: Db, userId: string) {
  return db
    .selectFrom('data_exports')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy((eb) => eb('status', '=', 'building'), 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('ready_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findExport(db: Db, userId: string, id: string) {
  return db.selectFrom('data_exports').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Archives asked for since `since` (the daily limit), failed ones included. */
export async function countExportsSince(db: Db, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('data_exports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function setProgress(db: Db, id: string, progress: number): Promise<void> {
  await db.updateTable('data_exports').set({ progress }).where('id', '=', id).where('status', '=', 'building').execute();
}

/** The archive is stored: ready until `expiresAt`. False when its row is gone (the account was deleted meanwhile). */
export async function markReady(
  db: Db,
  e: { id: string; storageKey: string; bytes: number; now: Date; expiresAt: Date },
): Promise<boolean> {
  const r = await db
    .updateTable('data_exports')
    .set({ status: 'ready', progress: 100, storage_key: e.storageKey, bytes: e.bytes, ready_at: e.now, expires_at: e.expiresAt })
    .where('id', '=', e.id)
    .where('status', '=', 'building')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function markFailed(db: Db, id: string): Promise<void> {
  await db.updateTable('data_exports').set({ status: 'failed' }).where('id', '=', id).where('status', '=', 'building').execute();
}

/** Archives left building by a stopped server: nothing builds them any more. */
export async function failStaleBuilding(db: Db, before: Date): Promise<void> {
  await db
    .updateTable('data_exports')
    .set({ status: 'failed' })
    .where('status', '=', 'building')
    .where('created_at', '<', before)
    .execute();
}

/** Ready archives past their day, marked expired; returns their files to delete. */
export async function expireExports(db: Db, now: Date, userId?: string): Promise<string[]> {
  let q = db
    .updateTable('data_exports')
    .set({ status: 'expired', storage_key: null })
    .where('status', '=', 'ready')
    .where('expires_at', '<=', now);
  if (userId) q = q.where('user_id', '=', userId);
  // returning() gives the new row, so the key is read first, under the same conditions.
  let keys = db.selectFrom('data_exports').select('storage_key').where('status', '=', 'ready').where('expires_at', '<=', now);
  if (userId) keys = keys.where('user_id', '=', userId);
  const files = (await keys.execute()).flatMap((r) => r.storage_key ?? []);
  await q.execute();
  return files;
}

/** Every stored archive of the user (erasure removes the files). */
export async function exportFilesOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('data_exports').select('storage_key').where('user_id', '=', userId).execute();
  return rows.flatMap((r) => r.storage_key ?? []);
}

/**
 * Rate-limit counters keyed by the user's id, one of his addresses or one of his phone numbers'
 * count keys (sign-in, reset, checks, texts; see account/phone.ts phoneCountKey).
 */
export async function deleteRequestCounts(
  db: Db,
  userId: string,
  emails: readonly string[],
  phoneKeys: readonly string[],
): Promise<void> {
  const keys = [...emails.flatMap((e) => [`email:${e}`, `forgot:email:${e}`]), ...phoneKeys];
  await db
    .deleteFrom('auth_attempts')
    .where((eb) => eb.or([eb('key', 'like', `%:user:${userId}`), ...(keys.length ? [eb('key', 'in', keys)] : [])]))
    .execute();
}

/**
 * Deletes the user's row: every table whose rows belong to him follows by its foreign key's cascade.
 * The grid's change log (modules/discovery/memory.ts) would then name him for ten minutes: his rows
 * there go too, and one reset in their place makes every instance drop all it holds.
 */
export async function deleteUserRow(db: Db, userId: string): Promise<boolean> {
  const r = await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  await db.deleteFrom('grid_changes').where('user_id', '=', userId).execute();
  await db.insertInto('grid_changes').values({ user_id: '*', what: 'erasure' }).execute();
  return Number(r.numDeletedRows) > 0;
}

// The snapshot's reads, category by category.
export * from './repo/payments.ts';
export * from './repo/snapshot.ts';
