import { type Expression, expressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB, Db } from '../../db/index.ts';

/**
 * The block list and the rule read from it: "neither blocked the other" (spec sections 4, 7), the
 * only module that names `user_blocks`. Every query that lists or reaches another user filters
 * with `notBlocked`; the message send (fmk_send_message, in SQL) is the one other place, and its
 * test holds it to the same answers.
 */

/**
 * The users `viewerId` blocked and those who blocked him, as one uncorrelated set: PostgreSQL
 * reads it once per statement (two index probes, user_blocks_pk and user_blocks_blocked) and
 * hashes it, however many rows are checked against it. Blocks per user are few.
 */
export function blockedEitherWaySet(viewerId: string) {
  const eb = expressionBuilder<DB, never>();
  return eb
    .selectFrom('user_blocks as b')
    .select('b.blocked_id as other')
    .where('b.blocker_id', '=', viewerId)
    .unionAll(eb.selectFrom('user_blocks as b2').select('b2.blocker_id as other').where('b2.blocked_id', '=', viewerId));
}

/** A column naming the other user (`'ul.user_id'`), or a value (`sql.val(id)`). */
type OtherId = string | Expression<string>;
const refOf = (other: OtherId) => (typeof other === 'string' ? sql.ref(other) : other);

/**
 * Neither the viewer nor the other user blocked the other. `otherId` must never be null (NOT IN
 * with a null is null): an id column of an inner-joined row, or a value.
 */
export function notBlocked(viewerId: string, otherId: OtherId): RawBuilder<SqlBool> {
  return sql<SqlBool>`${refOf(otherId)} not in ${blockedEitherWaySet(viewerId)}`;
}

/** Either blocked the other: `notBlocked` negated, for a flag in a select list. */
export function blockedEitherWay(viewerId: string, otherId: OtherId): RawBuilder<SqlBool> {
  return sql<SqlBool>`${refOf(otherId)} in ${blockedEitherWaySet(viewerId)}`;
}

/** `blockerId` blocked `blockedId` (two ids, one direction): for the two flags of core's Relation. */
export function hasBlocked(blockerId: string, blockedId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from user_blocks where blocker_id = ${blockerId} and blocked_id = ${blockedId})`;
}

/** How two users stand by blocks (core's Relation: blockedByActor, blockedActor). */
export async function blockRelation(
  db: Db,
  actorId: string,
  otherId: string,
): Promise<{ blockedByActor: boolean; blockedActor: boolean }> {
  const row = await db
    .selectNoFrom([hasBlocked(actorId, otherId).as('by_actor'), hasBlocked(otherId, actorId).as('of_actor')])
    .executeTakeFirstOrThrow();
  return { blockedByActor: Boolean(row.by_actor), blockedActor: Boolean(row.of_actor) };
}

// ---------------------------------------------------------------------------------------------
// The list's own rows (safety's block, unblock and list).

/** Adds the block; blocking twice is one block. */
export async function insertBlock(db: Db, blockerId: string, blockedId: string, at: Date): Promise<void> {
  await db
    .insertInto('user_blocks')
    .values({ blocker_id: blockerId, blocked_id: blockedId, created_at: at })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

export async function deleteBlock(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db.deleteFrom('user_blocks').where('blocker_id', '=', blockerId).where('blocked_id', '=', blockedId).execute();
}

/** The users `blockerId` blocked, newest first (at most 1000). */
export function listBlockedBy(db: Db, blockerId: string) {
  return db
    .selectFrom('user_blocks as b')
    .innerJoin('users as u', 'u.id', 'b.blocked_id')
    .select(['u.id', 'u.display_name', 'u.photo_url', 'u.photo_nudity', 'u.photo_sensitive', 'b.created_at'])
    .where('b.blocker_id', '=', blockerId)
    .orderBy('b.created_at', 'desc')
    .orderBy('u.id')
    .limit(1000)
    .execute();
}
