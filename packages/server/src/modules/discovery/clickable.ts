import { CLICKABLE_UPSELL, CLICKABLE_UPSELL_PLATINUM, effectiveTier, TIER_LIMITS, UNLIMITED } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { limitReached, unauthorized } from '../../platform/errors.ts';
import { isOpenTo } from './repo.ts';
import { dayOf } from './service.ts';

/**
 * The tier limit on opening profiles (spec section 6: 5 / 25 / unlimited), enforced where a full
 * profile is read: the target must be the viewer himself, a match or conversation partner, or in
 * today's clickable set written when the viewer's grid was served. Demo users are no exception.
 */
export async function requireClickable(db: Db, viewerId: string, targetId: string, now: Date): Promise<void> {
  if (viewerId === targetId) return;
  const viewer = await db
    .selectFrom('users')
    .select(['subscription_tier', 'has_lifetime_premium'])
    .where('id', '=', viewerId)
    .executeTakeFirst();
  if (!viewer) throw unauthorized();
  const tier = effectiveTier({ subscriptionTier: viewer.subscription_tier, hasLifetimePremium: viewer.has_lifetime_premium });
  if (TIER_LIMITS[tier].clickableProfiles === UNLIMITED) return;
  if (await isOpenTo(db, viewerId, targetId, dayOf(now))) return;
  throw limitReached(tier === 'free' ? CLICKABLE_UPSELL : CLICKABLE_UPSELL_PLATINUM);
}
