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

/** Rate-limit counters keyed by the user's id or one of his addresses (sign-in, reset, checks). */
export async function deleteRequestCounts(db: Db, userId: string, emails: readonly string[]): Promise<void> {
  const keys = emails.flatMap((e) => [`email:${e}`, `forgot:email:${e}`]);
  await db
    .deleteFrom('auth_attempts')
    .where((eb) => eb.or([eb('key', 'like', `%:user:${userId}`), ...(keys.length ? [eb('key', 'in', keys)] : [])]))
    .execute();
}

/** Deletes the user's row: every table whose rows belong to him follows by its foreign key's cascade. */
export async function deleteUserRow(db: Db, userId: string): Promise<boolean> {
  const r = await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// The snapshot: every row that names the user, category by category.

export function userRow(db: Db, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export function identityRows(db: Db, userId: string) {
  return db
    .selectFrom('identity_mappings')
    .select(['id', 'email', 'is_active', 'previous_emails', 'previous_anonymous_ids', 'registration_source', 'created_at'])
    .where('user_id', '=', userId)
    .execute();
}

export async function settingsRows(db: Db, userId: string) {
  return {
    settings: await db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    location: await db
      .selectFrom('user_locations')
      .select(['lat', 'lng', 'is_active', 'mode', 'last_updated'])
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    modeChanges: await db
      .selectFrom('mode_events')
      .select(['from_label', 'to_label', 'trigger', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    healthTimeZone: (await db.selectFrom('health_settings').select('time_zone').where('user_id', '=', userId).executeTakeFirst())
      ?.time_zone,
  };
}

export function photoRows(db: Db, userId: string) {
  return db
    .selectFrom('photos')
    .select(['id', 'storage_key', 'width', 'height', 'bytes', 'position', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('position')
    .execute();
}

export function messagePhotoRows(db: Db, userId: string) {
  return db
    .selectFrom('message_photos')
    .select(['id', 'storage_key', 'width', 'height', 'bytes', 'created_at'])
    .where('user_id', '=', userId)
    .execute();
}

export async function promptRows(db: Db, userId: string) {
  return {
    liked: await db
      .selectFrom('prompt_likes as l')
      .innerJoin('prompts as p', 'p.id', 'l.prompt_id')
      .select(['l.prompt_id', 'p.text as prompt', 'l.owner_id', 'l.created_at'])
      .where('l.liker_id', '=', userId)
      .execute(),
    likesReceived: await db
      .selectFrom('prompt_likes as l')
      .innerJoin('prompts as p', 'p.id', 'l.prompt_id')
      .select(['l.prompt_id', 'p.text as prompt', 'l.liker_id', 'l.created_at'])
      .where('l.owner_id', '=', userId)
      .execute(),
  };
}

export async function selectionRows(db: Db, userId: string) {
  return {
    selections: await db
      .selectFrom('selections')
      .select(['id', 'target_id', 'action', 'is_super', 'created_at', 'updated_at', 'seen_at'])
      .where('chooser_id', '=', userId)
      .execute(),
    // Kills are kept only as requests (they make no selection row).
    requests: await db
      .selectFrom('selection_requests')
      .select(['client_id', 'target_id', 'action', 'is_super', 'created_at'])
      .where('chooser_id', '=', userId)
      .execute(),
    profilesOpened: await db
      .selectFrom('grid_unlocks')
      .select(['day', 'target_id', 'created_at'])
      .where('viewer_id', '=', userId)
      .execute(),
  };
}

/** The user's matches, each with the other man's id and name as the app showed them. */
export async function matchRows(db: Db, userId: string) {
  const rows = await db
    .selectFrom('matches')
    .select(['id', 'user_a', 'user_b', 'match_type', 'user_actions', 'matched_at'])
    .where((eb) => eb.or([eb('user_a', '=', userId), eb('user_b', '=', userId)]))
    .execute();
  const names = await displayNames(
    db,
    rows.map((r) => (r.user_a === userId ? r.user_b : r.user_a)),
  );
  return rows.map((r) => {
    const partner = r.user_a === userId ? r.user_b : r.user_a;
    return {
      id: r.id,
      partnerId: partner,
      partnerName: names.get(partner) ?? null,
      matchType: r.match_type,
      actions: r.user_actions,
      matchedAt: r.matched_at,
    };
  });
}

async function displayNames(db: Db, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.display_name]));
}

/** The user's conversations with every message in them, both sides' (he received them). */
export async function conversationRows(db: Db, userId: string) {
  const conversations = await db
    .selectFrom('conversations')
    .select([
      'id',
      'user_a',
      'user_b',
      'type',
      'mode',
      'match_type',
      'is_accepted',
      'created_at',
      'last_activity',
      'deleted_a',
      'deleted_b',
    ])
    .where((eb) => eb.or([eb('user_a', '=', userId), eb('user_b', '=', userId)]))
    .orderBy('created_at')
    .execute();
  const ids = conversations.map((c) => c.id);
  const messages = ids.length
    ? await db
        .selectFrom('messages')
        .select(['id', 'conversation_id', 'sender_id', 'type', 'content', 'photo_id', 'created_at', 'delivered_at', 'read_at'])
        .where('conversation_id', 'in', ids)
        .orderBy('seq')
        .execute()
    : [];
  const names = await displayNames(
    db,
    conversations.map((c) => (c.user_a === userId ? c.user_b : c.user_a)),
  );
  return conversations.map((c) => {
    const partner = c.user_a === userId ? c.user_b : c.user_a;
    return {
      id: c.id,
      partnerId: partner,
      partnerName: names.get(partner) ?? null,
      type: c.type,
      mode: c.mode,
      matchType: c.match_type,
      accepted: c.is_accepted,
      hiddenByMe: c.user_a === userId ? c.deleted_a : c.deleted_b,
      createdAt: c.created_at,
      lastActivity: c.last_activity,
      messages: messages
        .filter((m) => m.conversation_id === c.id)
        .map((m) => ({
          id: m.id,
          fromMe: m.sender_id === userId,
          type: m.type,
          content: m.content,
          photoId: m.photo_id,
          createdAt: m.created_at,
          deliveredAt: m.delivered_at,
          readAt: m.read_at,
        })),
    };
  });
}

export async function cruiseRows(db: Db, userId: string) {
  return {
    sessions: await db.selectFrom('cruise_sessions').selectAll().where('user_id', '=', userId).orderBy('started_at').execute(),
    counters: await db.selectFrom('cruise_counters').selectAll().where('user_id', '=', userId).execute(),
    spotsProposed: await db
      .selectFrom('cruising_spots')
      .select(['id', 'name', 'kind', 'description', 'lat', 'lng', 'status', 'created_at'])
      .where('proposed_by', '=', userId)
      .execute(),
    checkins: await db.selectFrom('spot_checkins').selectAll().where('user_id', '=', userId).execute(),
    eventsCreated: await db.selectFrom('group_events').selectAll().where('creator_id', '=', userId).execute(),
    eventsJoined: await db.selectFrom('event_attendees').selectAll().where('user_id', '=', userId).execute(),
    eventComments: await db.selectFrom('event_comments').selectAll().where('user_id', '=', userId).execute(),
  };
}

export function sessionRows(db: Db, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['created_at', 'last_used_at', 'expires_at', 'revoked_at', 'user_agent', 'ip_address'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/** Staff actions about the user, found by his anonymous ids or his addresses (the audit log names no user id). */
export function auditRows(db: Db, anonymousIds: readonly string[], emails: readonly string[]) {
  return db
    .selectFrom('audit_log')
    .select(['action', 'reason', 'created_at'])
    .where((eb) =>
      eb.or([
        ...(anonymousIds.length ? [eb('anonymous_id', 'in', [...anonymousIds])] : []),
        ...(emails.length ? [eb('email', 'in', [...emails])] : []),
        eb.lit(false),
      ]),
    )
    .orderBy('created_at')
    .execute();
}

/** The browsers that receive his pushes; their keys stay out. */
export function pushRows(db: Db, userId: string) {
  return db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'user_agent', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .execute();
}
