import { CLICKABLE_UPSELL, CLICKABLE_UPSELL_PLATINUM, effectiveTier, openOutcome } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { limitReached, unauthorized } from '../../platform/errors.ts';
import { findOpenRelation, insertOpen, lockViewerForOpen } from './repo.ts';
import { dayOf } from './service.ts';

/**
 * The tier limit on opening profiles (spec section 6: 5 / 25 / unlimited), enforced where a full
 * profile is read: opening a profile the viewer has not opened today spends one of the day's
 * opens, unless he is a match, a conversation partner or a man who liked the viewer (core
 * `openOutcome`). The viewer's row is locked so that two opens at once cannot both take the last one.
 */
export async function requireClickable(db: Db, viewerId: string, targetId: string, now: Date): Promise<void> {
  if (viewerId === targetId) return;
  const today = dayOf(now);
  await db.transaction().execute(async (trx) => {
    const viewer = await lockViewerForOpen(trx, viewerId);
    if (!viewer) throw unauthorized();
    const tier = effectiveTier({ subscriptionTier: viewer.subscription_tier, hasLifetimePremium: viewer.has_lifetime_premium });
    const { relation, openedCount } = await findOpenRelation(trx, viewerId, targetId, today);
    const outcome = openOutcome(tier, relation, openedCount);
    if (outcome === 'locked') throw limitReached(tier === 'free' ? CLICKABLE_UPSELL : CLICKABLE_UPSELL_PLATINUM);
    if (outcome === 'spend') await insertOpen(trx, viewerId, today, targetId, openedCount, now);
  });
}
