import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** SQL of Boost: the boosts he ran, the credits he bought, the viewers each boost reached. */

/** His row locked for the transaction: one boost start (or credit) of his at a time. */
export async function lockUser(trx: Db, userId: string): Promise<boolean> {
  return Boolean(await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst());
}

/** His latest boost with its distinct viewers so far; undefined before his first. */
export function latestBoost(db: Db, userId: string) {
  return db
    .selectFrom('boosts as b')
    .select((eb) => [
      'b.id',
      'b.source',
      'b.started_at',
      'b.ends_at',
      eb
        .selectFrom('boost_views as v')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('v.boost_id', '=', 'b.id')
        .as('views'),
    ])
    .where('b.user_id', '=', userId)
    .orderBy('b.started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Included boosts he started in [start, end): the UTC day's. */
export async function includedStarted(db: Db, userId: string, start: Date, end: Date): Promise<number> {
  const r = await db
    .selectFrom('boosts')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', userId)
    .where('source', '=', 'included')
    .where('started_at', '>=', start)
    .where('started_at', '<', end)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Credits bought and not used yet. */
export async function unusedCredits(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom('boost_credits')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertBoost(
  trx: Db,
  b: { id: string; userId: string; source: 'included' | 'credit'; startedAt: Date; endsAt: Date },
): Promise<void> {
  await trx
    .insertInto('boosts')
    .values({ id: b.id, user_id: b.userId, source: b.source, started_at: b.startedAt, ends_at: b.endsAt })
    .execute();
}

/** Spends his oldest unused credit on a boost; false when he has none. */
export async function spendCredit(trx: Db, userId: string, boostId: string, now: Date): Promise<boolean> {
  const credit = await trx
    .selectFrom('boost_credits')
    .select('id')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!credit) return false;
  await trx.updateTable('boost_credits').set({ boost_id: boostId, used_at: now }).where('id', '=', credit.id).execute();
  return true;
}

export async function insertCredit(trx: Db, c: { id: string; userId: string; paymentId: string; now: Date }): Promise<void> {
  await trx
    .insertInto('boost_credits')
    .values({ id: c.id, user_id: c.userId, payment_id: c.paymentId, created_at: c.now, boost_id: null, used_at: null })
    .execute();
}

/**
 * One view per running boost of `boostedIds` (men) and viewer: a viewer who sees him again is not
 * counted again, and a boost that ended meanwhile gains none.
 */
export async function insertViews(db: Db, boostedIds: readonly string[], viewerId: string, now: Date): Promise<void> {
  if (boostedIds.length === 0) return;
  await db
    .insertInto('boost_views')
    .columns(['boost_id', 'viewer_id', 'seen_at'])
    .expression(
      db
        .selectFrom('boosts')
        .select(['id', sql<string>`${viewerId}::text`.as('viewer_id'), sql<Date>`${now}::timestamptz`.as('seen_at')])
        .where('user_id', 'in', boostedIds)
        .where('ends_at', '>', now)
        .where('started_at', '<=', now),
    )
    .onConflict((oc) => oc.columns(['boost_id', 'viewer_id']).doNothing())
    .execute();
}
