import { type Actor, type BillingSummary, paymentStats } from '@fmk/core';
import { memberRefunds } from './repo/payments.ts';
import * as repo from './repo.ts';
import type { BillingDeps } from './service.ts';

/** GET /billing: the payment screen in one read (spec section 4 "Payment stats"). */
export async function billingSummary(deps: Pick<BillingDeps, 'db' | 'config'>, actor: Actor): Promise<BillingSummary> {
  const { db, config } = deps;
  const [customerId, subs, cards, paid, refunds] = await Promise.all([
    repo.findCustomer(db, actor.id),
    repo.listSubscriptions(db, actor.id),
    repo.listCards(db, actor.id),
    repo.listPayments(db, actor.id),
    memberRefunds(db, actor.id),
  ]);
  // His history: payments and the refunds staff made of them, newest first.
  const payments = [...paid, ...refunds].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, 100);
  // What he pays for first, since that is what this screen manages; else a staff grant.
  const live = subs.find((s) => s.status !== 'canceled' && !s.comp) ?? subs.find((s) => s.status !== 'canceled') ?? null;
  const p = config.payments;
  return {
    tier: actor.tier,
    customerId: customerId ?? null,
    subscription: live ? repo.toSubscription(live) : null,
    cards: cards.map(repo.toCard),
    payments,
    stats: paymentStats(
      payments,
      subs.map((s) => ({
        status: s.status,
        cancelAtPeriodEnd: s.cancel_at_period_end,
        amount: s.amount,
        nextBillingDate: s.next_billing_date ? new Date(s.next_billing_date) : null,
      })),
    ),
    provider:
      p.kind === 'square'
        ? { kind: 'square', applicationId: p.applicationId, locationId: p.locationId, environment: p.environment }
        : { kind: 'sandbox', applicationId: null, locationId: null, environment: 'sandbox' },
  };
}
