import { type FeatureFlag, type FeatureUse, featureAccess, rulesFor, type Tier, type TierRules } from '@fmk/core';
import type { Db } from '../db/index.ts';
import { auditStaff, type StaffBy } from './audit/repo.ts';
import { limitReached, notFound } from './errors.ts';
import { countUse, selectFlags, updateFlag, usedOn } from './flags/repo.ts';

/**
 * The feature-flag store: the one place every tier rule reads its limit from. Flags
 * are cached per database handle for a few seconds (an edit here clears the cache at once;
 * another instance sees it within FLAG_TTL_MS). A transaction reads them fresh.
 */
const FLAG_TTL_MS = 5_000;
const cache = new WeakMap<Db, { at: number; flags: Promise<FeatureFlag[]> }>();
let generation = 0;
const generations = new WeakMap<Db, number>();

export function loadFlags(db: Db): Promise<FeatureFlag[]> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.at < FLAG_TTL_MS && generations.get(db) === generation) return hit.flags;
  const flags = selectFlags(db);
  cache.set(db, { at: Date.now(), flags });
  generations.set(db, generation);
  flags.catch(() => cache.delete(db));
  return flags;
}

/** A tier's limits and features as the store holds them. */
export async function loadRules(db: Db, tier: Tier): Promise<TierRules> {
  return rulesFor(await loadFlags(db), tier);
}

/** Every tier's value of one counted feature, for a rule written in SQL (the message send). */
export async function loadTierLimits(db: Db, feature: keyof TierRules['limits']): Promise<Record<Tier, number>> {
  const flags = await loadFlags(db);
  return {
    free: rulesFor(flags, 'free').limits[feature],
    premium: rulesFor(flags, 'premium').limits[feature],
    platinum: rulesFor(flags, 'platinum').limits[feature],
  };
}

/** Staff edit a flag; the edit commits with its audit row, then every reader sees it at once. */
export async function editFlag(
  db: Db,
  id: string,
  patch: { isEnabled?: boolean; isPremium?: boolean; limit?: number | null },
  now: Date,
  by: StaffBy,
): Promise<FeatureFlag> {
  const found = await db.transaction().execute(async (trx) => {
    if (!(await updateFlag(trx, id, patch, now))) return false;
    const what = Object.entries(patch).map(([k, v]) => `${k}: ${String(v)}`);
    await auditStaff(trx, by, {
      action: 'feature_flag_edit',
      targetType: 'feature_flag',
      targetId: id,
      reason: what.join('; '),
      now,
    });
    return true;
  });
  if (!found) throw notFound('Feature not found');
  generation += 1;
  const flag = (await loadFlags(db)).find((f) => f.id === id);
  if (!flag) throw notFound('Feature not found');
  return flag;
}

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Spec sections 5 and 6: whether the user may use a feature now, and for a free user one use of
 * the day counted against the flag's limit (0, -1 or none: unlimited). Refusals are the domain
 * errors: unknown → 404, premium or the day's limit → 403 limit_reached with the upgrade text.
 */
export async function useFeature(
  db: Db,
  who: { id: string; tier: Tier; staff: boolean },
  featureId: string,
  now: Date,
): Promise<FeatureUse> {
  const flag = (await loadFlags(db)).find((f) => f.id === featureId);
  const day = dayOf(now);
  const before = featureAccess(flag, who, await usedOn(db, who.id, featureId, day));
  if (!before.allowed) throw before.reason === 'not_found' ? notFound(before.message) : limitReached(before.message);
  if (before.remaining === null) return { feature: featureId, allowed: true, remaining: null };
  // Count, then check the count: two uses racing for the last one cannot both pass.
  const used = await countUse(db, who.id, featureId, day);
  const after = featureAccess(flag, who, used - 1);
  if (!after.allowed) throw limitReached(after.message);
  return { feature: featureId, allowed: true, remaining: after.remaining };
}
