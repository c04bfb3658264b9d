import { randomUUID } from 'node:crypto';
import { COMP_DEFAULT_DAYS, PLANS, paidTierStays, TIERS, type Tier, tierFromSubscriptions } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict } from '../../platform/errors.ts';
import * as repo from './repo.ts';
import { type Emit, syncTier } from './tier.ts';

const DAY_MS = 86_400_000;
/** The customer id of a complimentary subscription: no provider customer stands behind it. */
export const STAFF_CUSTOMER = 'staff';

const rank = (t: Tier) => TIERS.indexOf(t);

/**
 * A staff tier change, in the caller's transaction (so its audit row commits with it): his staff
 * grants so far end, and for premium or platinum a complimentary subscription to that plan starts,
 * until `until` (COMP_DEFAULT_DAYS from now when absent). It costs nothing, holds no card and is
 * never renewed; it lapses at its end. The tier itself is then derived by syncTier, like any
 * billing change, and his tabs hear of it. What he pays for is his: lowering him below it is
 * refused with the text saying so, and nothing changes.
 */
export async function grantStaffTier(
  trx: Db,
  emit: Emit,
  userId: string,
  tier: Tier,
  until: Date | undefined,
  now: Date,
): Promise<void> {
  const end = until ?? new Date(now.getTime() + COMP_DEFAULT_DAYS * DAY_MS);
  if (end <= now) throw badRequest('The end of the grant must be in the future.', { until: 'past' });
  await repo.lockUser(trx, userId);
  const subs = await repo.listSubscriptions(trx, userId);
  const paid = subs.filter((s) => !s.comp);
  const paidTier = tierFromSubscriptions(paid.map(repo.toGrant), now);
  if (rank(paidTier) > rank(tier)) {
    const plan = PLANS.find((p) => p.tier === paidTier);
    throw conflict(paidTierStays(plan?.name ?? paidTier));
  }
  for (const s of subs)
    if (s.comp && s.status !== 'canceled')
      await repo.updateSubscription(trx, s.id, {
        status: 'canceled',
        canceled_at: now,
        next_billing_date: null,
        updated_at: now,
      });
  const plan = PLANS.find((p) => p.tier === tier);
  if (plan)
    await repo.insertSubscription(trx, {
      id: randomUUID(),
      user_id: userId,
      customer_id: STAFF_CUSTOMER,
      plan_id: plan.id,
      plan_name: plan.name,
      status: 'active',
      current_period_start: now,
      current_period_end: end,
      next_billing_date: null,
      amount: 0,
      currency: plan.currency,
      payment_method_id: null,
      provider_subscription_id: null,
      comp: true,
      created_at: now,
      updated_at: now,
    });
  await syncTier(trx, userId, now, emit);
}
