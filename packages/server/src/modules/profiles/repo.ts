import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { UserRow, UserUpdate } from '../../db/schema.ts';
import { blockedEitherWay } from '../../platform/blocks/repo.ts';

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The user's row, locked until the transaction ends. Every write to a user's profile or photos
 * takes this lock first, so read-check-write sequences (merges, the photo limit) cannot interleave.
 */
export function lockUser(trx: Db, id: string): Promise<UserRow | undefined> {
  return trx.selectFrom('users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateUser(db: Db, id: string, values: UserUpdate): Promise<unknown> {
  return db.updateTable('users').set(values).where('id', '=', id).execute();
}

/** A photo as stored: what every photo answer is made from (present.ts). */
export interface PhotoRow {
  id: string;
  storage_key: string;
  width: number;
  height: number;
  /** Held by moderation: shown to its owner only (present.ts marks it in review). */
  held?: boolean;
  /** With `withVerdict`: the model's nudity score, null until scored. */
  nudity?: number | null;
  /** With `withVerdict`: the model flagged it for nudity (core PhotoVerdict). */
  sensitive?: boolean;
}

/**
 * The user's photos in his order; `visibleOnly` leaves out those held by moderation (what others
 * see), `withVerdict` adds what the model said of each (its moderation item), for the viewer's
 * content filter (core profilePhotoView) and the avatar others' lists show.
 */
export function listPhotos(
  db: Db,
  userId: string,
  opts: { visibleOnly?: boolean; withVerdict?: boolean } = {},
): Promise<PhotoRow[]> {
  return db
    .selectFrom('photos')
    .leftJoin('moderation_items as mi', (j) =>
      j.on('mi.content_type', '=', 'profile_photo').onRef('mi.content_id', '=', 'photos.id'),
    )
    .select(['photos.id', 'photos.storage_key', 'photos.width', 'photos.height', 'photos.held'])
    .$if(opts.withVerdict === true, (q) =>
      q.select([
        sql<number | null>`(mi.ai_analysis->>'nudity')::float8`.as('nudity'),
        sql<boolean>`coalesce(mi.flagged_reason like '%nudity%', false)`.as('sensitive'),
      ]),
    )
    .where('photos.user_id', '=', userId)
    .$if(opts.visibleOnly === true, (q) => q.where('photos.held', '=', false))
    .orderBy('photos.position')
    .orderBy('photos.created_at')
    .orderBy('photos.id')
    .execute();
}

/**
 * Messages the user has sent: the sum of his daily counters, which every new message adds to.
 * (users.stats.messages is no longer written per message; see migration 20261122T2100.)
 */
export async function countMessagesSent(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('message_counters')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), sql<number>`0`).as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countPhotos(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('photos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function nextPhotoPosition(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('photos')
    .select(sql<number>`coalesce(max(position), -1) + 1`.as('next'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.next);
}

export function insertPhoto(
  db: Db,
  photo: { id: string; userId: string; storageKey: string; width: number; height: number; bytes: number; position: number },
): Promise<unknown> {
  return db
    .insertInto('photos')
    .values({
      id: photo.id,
      user_id: photo.userId,
      storage_key: photo.storageKey,
      width: photo.width,
      height: photo.height,
      bytes: photo.bytes,
      position: photo.position,
    })
    .execute();
}

/** Holds or releases a photo (moderation); its owner, or undefined when the photo is gone. */
export async function setPhotoHeld(db: Db, photoId: string, held: boolean): Promise<string | undefined> {
  const row = await db.updateTable('photos').set({ held }).where('id', '=', photoId).returning('user_id').executeTakeFirst();
  return row?.user_id;
}

/** The owner of a photo, or undefined when there is no such photo. */
export async function photoOwner(db: Db, photoId: string): Promise<string | undefined> {
  const row = await db.selectFrom('photos').select('user_id').where('id', '=', photoId).executeTakeFirst();
  return row?.user_id;
}

/** Deletes one of the user's photos; another user's photo is not found. */
export async function deleteOwnPhoto(db: Db, userId: string, photoId: string): Promise<string | null> {
  const row = await db
    .deleteFrom('photos')
    .where('id', '=', photoId)
    .where('user_id', '=', userId)
    .returning('storage_key')
    .executeTakeFirst();
  return row?.storage_key ?? null;
}

export async function setPhotoPositions(db: Db, userId: string, orderedIds: readonly string[]): Promise<void> {
  for (const [position, id] of orderedIds.entries()) {
    await db.updateTable('photos').set({ position }).where('id', '=', id).where('user_id', '=', userId).execute();
  }
}

export function insertModeEvent(
  db: Db,
  e: { userId: string; fromLabel: string; toLabel: string; trigger: 'manual' | 'auto'; at: Date },
): Promise<unknown> {
  return db
    .insertInto('mode_events')
    .values({ user_id: e.userId, from_label: e.fromLabel, to_label: e.toLabel, trigger: e.trigger, created_at: e.at })
    .execute();
}

/** Another user's row as a viewer reads it: with their presence settings and the block flag. */
export function findUserForViewer(db: Db, ownerId: string, viewerId: string) {
  return db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .selectAll('users')
    .select([
      'user_settings.show_online_status',
      'user_settings.show_last_active',
      blockedEitherWay(viewerId, 'users.id').as('blocked'),
    ])
    .where('users.id', '=', ownerId)
    .executeTakeFirst();
}
export type ViewedUserRow = NonNullable<Awaited<ReturnType<typeof findUserForViewer>>>;
