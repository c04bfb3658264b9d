import { z } from 'zod';
import type { Plan } from './plans.ts';

/**
 * The admin money area's contract (spec section 2: subscriptions/pricing). Plans live in the
 * database; staff edit price, features and whether a plan is sold. An edit applies to new
 * subscriptions only: each subscription keeps the amount it was sold at.
 */

export const planRecordSchema = z.object({
  id: z.string(),
  tier: z.enum(['premium', 'platinum']),
  name: z.string(),
  priceCents: z.number().int(),
  currency: z.string(),
  interval: z.literal('monthly'),
  features: z.array(z.string()),
  active: z.boolean(),
  updatedAt: z.string(),
});
export type PlanRecord = z.infer<typeof planRecordSchema>;
export const plansSchema = z.object({ plans: z.array(planRecordSchema) });

/** The lowest and highest monthly price staff may set, in cents. */
export const PLAN_PRICE_MIN = 100;
export const PLAN_PRICE_MAX = 100_000;

export const planPatch = z
  .object({
    priceCents: z
      .number()
      .int('The price is in whole cents.')
      .min(PLAN_PRICE_MIN, 'The price must be at least $1.00.')
      .max(PLAN_PRICE_MAX, 'The price must be at most $1,000.00.')
      .optional(),
    features: z
      .array(z.string().trim().min(1, 'A feature line cannot be empty.').max(80))
      .min(1, 'List at least one feature.')
      .max(12, 'List at most 12 features.')
      .optional(),
    active: z.boolean().optional(),
    /** Why the change: kept in the audit log. */
    reason: z.string().trim().max(500).optional(),
  })
  .refine((p) => p.priceCents !== undefined || p.features !== undefined || p.active !== undefined, {
    message: 'Change the price, the features or whether the plan is sold.',
  });
export type PlanPatch = z.infer<typeof planPatch>;

/** A database plan as the checkout uses it (core's Plan shape). */
export function planFromRecord(r: PlanRecord): Plan {
  return {
    id: r.id as Plan['id'],
    tier: r.tier,
    name: r.name,
    priceCents: r.priceCents,
    currency: 'USD',
    billingFrequency: 'monthly',
    features: r.features,
  };
}

/** subscriptions: the staff list, searched by a member's anonymous id or name, paged on the server. */
export const ADMIN_SUBSCRIPTIONS_PAGE = 50;
export const STAFF_SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;

export const adminSubscriptionsQuery = z.object({
  q: z.string().trim().max(200).optional(),
  status: z.enum(STAFF_SUBSCRIPTION_STATUSES).optional(),
  plan: z.string().trim().max(64).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type AdminSubscriptionsQuery = z.infer<typeof adminSubscriptionsQuery>;

export const adminSubscriptionRowSchema = z.object({
  id: z.string(),
  userId: z.string(),
  anonymousId: z.string().nullable(),
  displayName: z.string().nullable(),
  planId: z.string(),
  planName: z.string(),
  status: z.enum(STAFF_SUBSCRIPTION_STATUSES),
  amount: z.number().int(),
  currency: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  comp: z.boolean(),
  currentPeriodEnd: z.string(),
  createdAt: z.string(),
});
export type AdminSubscriptionRow = z.infer<typeof adminSubscriptionRowSchema>;

export const adminSubscriptionsPageSchema = z.object({
  rows: z.array(adminSubscriptionRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Every subscription by status, whatever the search and filters. */
  counts: z.record(z.enum(STAFF_SUBSCRIPTION_STATUSES), z.number().int()),
});
export type AdminSubscriptionsPage = z.infer<typeof adminSubscriptionsPageSchema>;

/** financial, financial/revenue, financial/forecasting: one answer the three screens share. */
export const financialQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((d) => d === 30 || d === 90, 'Choose 30 or 90 days.')
    .default(30),
  months: z.coerce.number().int().min(3).max(6).default(6),
});
export type FinancialQuery = z.infer<typeof financialQuery>;

export const financialSchema = z.object({
  now: z.string(),
  /** Monthly recurring revenue in cents: the live paying subscriptions (30-day periods). */
  mrr: z.number().int(),
  payingSubscriptions: z.number().int(),
  revenueDays: z.number().int(),
  /** Net: the completed payments of the period less the refunds made in it. */
  revenueTotal: z.number().int(),
  /** What refunds gave back in the period. */
  refundsTotal: z.number().int(),
  revenueByDay: z.array(z.object({ day: z.string(), cents: z.number().int() })),
  revenueByPlan: z.array(z.object({ plan: z.string(), cents: z.number().int(), payments: z.number().int() })),
  churn: z.array(z.object({ month: z.string(), liveAtStart: z.number().int(), ended: z.number().int(), rate: z.number() })),
  observedChurn: z.number(),
  forecast: z.array(
    z.object({ month: z.string(), expected: z.number().int(), renewals: z.number().int(), ceiling: z.number().int() }),
  ),
  method: z.string(),
});
export type Financial = z.infer<typeof financialSchema>;
