import type { FeatureFlag } from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** SQL of the feature-flag store (flags.ts): the flags and a free user's daily uses of each. */

export async function selectFlags(db: Db): Promise<FeatureFlag[]> {
  const rows = await db.selectFrom('feature_flags').selectAll().orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    isEnabled: r.is_enabled,
    isPremium: r.is_premium,
    limit: r.limit,
    minTier: r.min_tier,
    tierLimits: r.tier_limits,
  }));
}

export async function updateFlag(
  db: Db,
  id: string,
  patch: { isEnabled?: boolean; isPremium?: boolean; limit?: number | null },
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('feature_flags')
    .set({
      ...(patch.isEnabled === undefined ? {} : { is_enabled: patch.isEnabled }),
      ...(patch.isPremium === undefined ? {} : { is_premium: patch.isPremium }),
      ...(patch.limit === undefined ? {} : { limit: patch.limit }),
      updated_at: now,
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Counts one use and answers the count after it, in one statement (concurrent uses add up). */
export async function countUse(db: Db, userId: string, featureId: string, day: string): Promise<number> {
  const r = await db
    .insertInto('feature_usage')
    .values({ user_id: userId, feature_id: featureId, day, count: 1 })
    .onConflict((oc) => oc.columns(['user_id', 'feature_id', 'day']).doUpdateSet({ count: sql`feature_usage.count + 1` }))
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(r.count);
}

export async function usedOn(db: Db, userId: string, featureId: string, day: string): Promise<number> {
  const r = await db
    .selectFrom('feature_usage')
    .select('count')
    .where('user_id', '=', userId)
    .where('feature_id', '=', featureId)
    .where('day', '=', day)
    .executeTakeFirst();
  return r ? Number(r.count) : 0;
}
