import { z } from 'zod';
import { formatPrice } from './plans.ts';

/**
 * The admin `payments` screen's contract (spec section 2: payments, refunds through the
 * provider). Staff list every payment (search by a member's anonymous id or a payment's id,
 * filters, paged by the server), open one, and refund it in full or in part through the payment
 * provider. A refund is idempotent (its key), never exceeds what is left of the payment, and is
 * audited with the reason staff give.
 */

export const ADMIN_PAYMENTS_PAGE = 50;

/** A payment as staff see it: its own status, or how much of it was given back. */
export const STAFF_PAYMENT_STATUSES = ['completed', 'partially_refunded', 'refunded', 'failed'] as const;
export type StaffPaymentStatus = (typeof STAFF_PAYMENT_STATUSES)[number];

/** The plan filter's value for payments that bought no plan (Boost and other extras). */
export const ONE_TIME_PLAN = 'one_time';

const day = z
  .string()
  .trim()
  .regex(/^20\d{2}-\d{2}-\d{2}$/, 'Use a date written 2026-11-27.')
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
  }, 'That date does not exist.');

export const adminPaymentsQuery = z.object({
  /** A member's anonymous id or name, or a payment's id (ours or the provider's). */
  q: z.string().trim().max(200).optional(),
  status: z.enum(STAFF_PAYMENT_STATUSES).optional(),
  /** A plan id, or `one_time`. */
  plan: z.string().trim().max(64).optional(),
  /** First and last UTC day of the range, both included. */
  from: day.optional(),
  to: day.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type AdminPaymentsQuery = z.infer<typeof adminPaymentsQuery>;

export const PAYMENT_KINDS = ['subscription', 'renewal', 'one_time', 'proration'] as const;

export const adminPaymentRowSchema = z.object({
  id: z.string(),
  providerPaymentId: z.string().nullable(),
  /** Null once the payer erased his account: the record stays for the books, naming no one. */
  userId: z.string().nullable(),
  anonymousId: z.string().nullable(),
  displayName: z.string().nullable(),
  kind: z.enum(PAYMENT_KINDS),
  planName: z.string().nullable(),
  note: z.string().nullable(),
  amount: z.number().int(),
  /** Given back so far (pending and completed refunds). */
  refunded: z.number().int(),
  currency: z.string(),
  status: z.enum(STAFF_PAYMENT_STATUSES),
  createdAt: z.string(),
});
export type AdminPaymentRow = z.infer<typeof adminPaymentRowSchema>;

export const adminPaymentsPageSchema = z.object({
  rows: z.array(adminPaymentRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminPaymentsPage = z.infer<typeof adminPaymentsPageSchema>;

export const REFUND_STATUSES = ['pending', 'completed', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const adminRefundSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  status: z.enum(REFUND_STATUSES),
  providerRefundId: z.string().nullable(),
  /** Whether this refund ended the subscription it paid for (docs/billing.md). */
  canceledSubscription: z.boolean(),
  createdAt: z.string(),
});
export type AdminRefund = z.infer<typeof adminRefundSchema>;

export const adminPaymentDetailSchema = adminPaymentRowSchema.extend({
  /** What a refund may still give back. */
  refundable: z.number().int(),
  subscription: z
    .object({
      id: z.string(),
      planName: z.string(),
      status: z.enum(['active', 'past_due', 'canceled']),
      currentPeriodStart: z.string(),
      currentPeriodEnd: z.string(),
    })
    .nullable(),
  /** Whether a full refund of it ends the subscription now: it paid for the current period. */
  paysCurrentPeriod: z.boolean(),
  refunds: z.array(adminRefundSchema),
});
export type AdminPaymentDetail = z.infer<typeof adminPaymentDetailSchema>;

/** Square keeps a refund's reason to 192 characters. */
export const REFUND_REASON_MAX = 192;

export const refundBody = z.object({
  /** Cents to give back; left out, everything that is left of the payment. */
  amountCents: z.number().int('The amount is in whole cents.').min(1, 'Refund at least one cent.').optional(),
  reason: z
    .string()
    .trim()
    .min(1, 'Give a reason for the refund.')
    .max(REFUND_REASON_MAX, `Keep the reason under ${REFUND_REASON_MAX} characters.`),
  /** One key per refund staff mean to make: a retried request refunds once. */
  idempotencyKey: z.string().trim().min(8).max(64),
});
export type RefundBody = z.infer<typeof refundBody>;

export const refundAnswerSchema = z.object({
  refund: adminRefundSchema,
  payment: adminPaymentDetailSchema,
});
export type RefundAnswer = z.infer<typeof refundAnswerSchema>;

export const RefundMessages = {
  paymentNotFound: 'Payment not found',
  notRefundable: 'Only a completed payment can be refunded.',
  nothingLeft: 'This payment has been refunded in full already.',
  refundFailed: 'Refund failed',
  badRange: 'The start date must be on or before the end date.',
} as const;

/** The refusal of a refund larger than what is left of the payment. */
export const refundTooLarge = (left: number): string =>
  `The refund is more than what is left of the payment: at most ${formatPrice(left)}.`;

/** A payment's status as staff see it, from its own and what was given back. */
export function staffPaymentStatus(status: 'completed' | 'failed', amount: number, refunded: number): StaffPaymentStatus {
  if (status === 'failed') return 'failed';
  if (refunded <= 0) return 'completed';
  return refunded >= amount ? 'refunded' : 'partially_refunded';
}
