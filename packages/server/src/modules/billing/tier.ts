import { effectiveTier, type LiveServerEvent, tierFromSubscriptions } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import * as repo from './repo.ts';

export type Emit = (userIds: readonly string[], event: LiveServerEvent) => void;

/**
 * The one writer of `users.subscription_tier`, so it never disagrees with what is paid or
 * given: the tier his subscriptions (paid, or complimentary from staff) grant at `now`, recomputed in the transaction that changed them. When
 * his effective tier changes, his open tabs hear of it after the commit (a `tier` live event)
 * and refresh their session.
 */
export async function syncTier(trx: Db, userId: string, now: Date, emit: Emit): Promise<void> {
  const subs = await repo.listSubscriptions(trx, userId);
  const paid = tierFromSubscriptions(subs.map(repo.toGrant), now);
  if (await repo.setTier(trx, userId, paid)) {
    const tier = effectiveTier({ subscriptionTier: paid, hasLifetimePremium: await repo.lifetimePremium(trx, userId) });
    emit([userId], { type: 'tier', tier });
  }
}
