import { z } from 'zod';
import { DAY } from './clock.ts';
import { PLANS, type Plan } from './plans.ts';
import type { Tier } from './tiers.ts';

/**
 * Billing (spec sections 3 "Billing", 4 "Subscription record", 7 "Payment layer",
 * 8 "Plans", "Payment outcome", 9 "Plans"). The payment calls keep the spec's snake_case field
 * names; the records it lists keep its camelCase.
 */

export const BillingMessages = {
  invalidPlan: 'Invalid subscription plan',
  invalidPlanId: 'Invalid plan ID',
  subscriptionNotFound: 'Subscription not found',
  paymentFailed: 'Payment failed',
  cancellationFailed: 'Cancellation failed',
  updateFailed: 'Update failed',
  notInitialized: 'payments not initialized',
  amountMismatch: "The amount does not match the plan's price.",
  alreadySubscribed: 'You already have a subscription. Change its plan instead.',
  cardRequired: 'Add a card first.',
  cardNotFound: 'Card not found',
  priceOverrideStaffOnly: 'Only staff may override a price.',
  compFixed: 'This membership was given by staff: it cannot be changed or renewed. Subscribe to a plan instead.',
} as const;

/** Staff lowering a member below what he pays for: refused, his subscription is his to cancel. */
export const paidTierStays = (planName: string): string =>
  `He pays for ${planName}: staff cannot lower a paid tier. He keeps ${planName} until he cancels his subscription or it lapses.`;

/** How long a staff grant lasts when staff give no end date. */
export const COMP_DEFAULT_DAYS = 365;

/** The demo's period (spec section 9): 30 days. */
export const SUBSCRIPTION_PERIOD_MS = 30 * DAY;

/**
 * A failed renewal: the subscription goes past_due and keeps its tier while the card
 * is retried 1, 3 and 5 days after the period's end; when the last retry fails, the subscription
 * is canceled and the tier drops (to premium for a beta user with lifetime premium).
 */
export const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;

export function planById(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Whether a subscription gives its plan's tier at `now`: active or past_due (retrying), and when
 * canceled at period end, until that end. A complimentary one (given by staff, `comp`) counts like
 * a paid active one until its period's end, when it lapses: nothing renews it.
 */
export function subscriptionGrants(
  s: { status: SubscriptionStatus; cancelAtPeriodEnd: boolean; currentPeriodEnd: Date; comp?: boolean },
  now: Date,
): boolean {
  if (s.status === 'canceled') return false;
  if (s.cancelAtPeriodEnd || s.comp) return now < s.currentPeriodEnd;
  return true;
}

/** The tier a user's subscriptions pay for at `now` (the highest granting one), or free. */
export function tierFromSubscriptions(
  subs: readonly {
    planId: string;
    status: SubscriptionStatus;
    cancelAtPeriodEnd: boolean;
    currentPeriodEnd: Date;
    comp?: boolean;
  }[],
  now: Date,
): Tier {
  let tier: Tier = 'free';
  for (const s of subs) {
    if (!subscriptionGrants(s, now)) continue;
    const t = planById(s.planId)?.tier;
    if (t === 'platinum') return 'platinum';
    if (t === 'premium') tier = 'premium';
  }
  return tier;
}

/**
 * Proration of a plan change: an upgrade is charged now for the unused part of the
 * period at the price difference, rounded to the cent; a downgrade costs nothing now, is not
 * refunded, and the lower price applies from the next renewal. The period does not move.
 */
export function prorationCents(fromCents: number, toCents: number, periodStart: Date, periodEnd: Date, now: Date): number {
  if (toCents <= fromCents) return 0;
  const total = periodEnd.getTime() - periodStart.getTime();
  const left = Math.max(0, Math.min(total, periodEnd.getTime() - now.getTime()));
  return total <= 0 ? 0 : Math.round(((toCents - fromCents) * left) / total);
}

const money = z.object({
  amount: z.number().int().min(1).max(1_000_000),
  currency: z.literal('USD', { error: 'Only USD is accepted.' }),
});
/** A card token from the payment form (spec section 5: a card token must be present), or a saved card's id. */
const sourceId = z.string().trim().min(1, 'A card token is required.').max(255);
const idempotencyKey = z.string().trim().min(1).max(64);

export const subscriptionBody = z.object({
  source_id: sourceId.optional(),
  amount_money: money,
  idempotency_key: idempotencyKey,
  autocomplete: z.boolean().default(true),
  customer: z.string().max(64).optional(),
  subscription_plan: z.string().max(64),
});
export type SubscriptionBody = z.infer<typeof subscriptionBody>;

export const oneTimeBody = z.object({
  source_id: sourceId.optional(),
  amount_money: money,
  idempotency_key: idempotencyKey,
  autocomplete: z.boolean().default(true),
  note: z.string().max(500).optional(),
});
export type OneTimeBody = z.infer<typeof oneTimeBody>;

export const updateSubscriptionBody = z.object({
  plan_variation_id: z.string().max(64),
  price_override_money: money.optional(),
});
export const cancelSubscriptionBody = z.object({ atPeriodEnd: z.boolean().default(true) }).default({ atPeriodEnd: true });
export const addCardBody = z.object({ source_id: sourceId });

export const subscriptionSchema = z.object({
  id: z.string(),
  planId: z.string(),
  planName: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  currentPeriodStart: z.string(),
  currentPeriodEnd: z.string(),
  nextBillingDate: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  paymentMethodId: z.string().nullable(),
  createdAt: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  canceledAt: z.string().nullable(),
  /** Given by staff: no charge, no renewal; it lapses at currentPeriodEnd. */
  comp: z.boolean(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const paymentMethodSchema = z.object({
  id: z.string(),
  type: z.literal('card'),
  last4: z.string(),
  brand: z.string(),
  expiryMonth: z.number().int(),
  expiryYear: z.number().int(),
  isDefault: z.boolean(),
  createdAt: z.string(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/**
 * A line of the member's payment history: a payment, or a refund staff made of one (kind
 * `refund`, its amount what came back; `pending` until the provider completes it).
 */
export const paymentRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(['subscription', 'renewal', 'one_time', 'proration', 'refund']),
  status: z.enum(['completed', 'failed', 'pending']),
  amount: z.number().int(),
  currency: z.string(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;

export const paymentStatsSchema = z.object({
  totalSpent: z.number().int(),
  subscriptionsCount: z.number().int(),
  activeSubscriptions: z.number().int(),
  nextBillingAmount: z.number().int().nullable(),
  nextBillingDate: z.string().nullable(),
});
export type PaymentStats = z.infer<typeof paymentStatsSchema>;

/** The answer of a payment call (spec section 7: payment_id, subscription_id, customer_id; section 8: success false). */
export const paymentAnswerSchema = z.object({
  success: z.boolean(),
  error: z.string().optional(),
  payment_id: z.string().optional(),
  subscription_id: z.string().optional(),
  customer_id: z.string().optional(),
  subscription: subscriptionSchema.optional(),
});
export type PaymentAnswer = z.infer<typeof paymentAnswerSchema>;

export const subscriptionAnswerSchema = z.object({ success: z.boolean(), subscription: subscriptionSchema });
export const subscriptionListSchema = z.object({ subscriptions: z.array(subscriptionSchema) });

export const billingSummarySchema = z.object({
  tier: z.enum(['free', 'premium', 'platinum']),
  customerId: z.string().nullable(),
  subscription: subscriptionSchema.nullable(),
  cards: z.array(paymentMethodSchema),
  payments: z.array(paymentRecordSchema),
  stats: paymentStatsSchema,
  /** Which card form the web shows: the built-in sandbox's, or Square's Web Payments SDK. */
  provider: z.object({
    kind: z.enum(['sandbox', 'square']),
    applicationId: z.string().nullable(),
    locationId: z.string().nullable(),
    environment: z.enum(['sandbox', 'production']),
  }),
});
export type BillingSummary = z.infer<typeof billingSummarySchema>;

/** Spec section 4 "Payment stats", from the user's payments and subscriptions. */
export function paymentStats(
  payments: readonly { kind?: string; status: string; amount: number }[],
  subs: readonly { status: SubscriptionStatus; cancelAtPeriodEnd: boolean; amount: number; nextBillingDate: Date | null }[],
): PaymentStats {
  const renewing = subs.filter((s) => s.status !== 'canceled' && !s.cancelAtPeriodEnd && s.nextBillingDate);
  const next = renewing.sort((a, b) => (a.nextBillingDate?.getTime() ?? 0) - (b.nextBillingDate?.getTime() ?? 0))[0];
  return {
    // What he paid, less what was given back (a refund counts from its request until it fails).
    totalSpent: payments.reduce(
      (n, p) => (p.kind === 'refund' ? (p.status === 'failed' ? n : n - p.amount) : p.status === 'completed' ? n + p.amount : n),
      0,
    ),
    subscriptionsCount: subs.length,
    activeSubscriptions: subs.filter((s) => s.status !== 'canceled').length,
    nextBillingAmount: next ? next.amount : null,
    nextBillingDate: next?.nextBillingDate ? next.nextBillingDate.toISOString() : null,
  };
}
