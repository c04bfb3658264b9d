import { randomUUID } from 'node:crypto';
import {
  type AdminPaymentDetail,
  type AdminPaymentsPage,
  type AdminPaymentsQuery,
  formatPrice,
  type RefundAnswer,
  type RefundBody,
  RefundMessages,
  refundTooLarge,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { auditStaff, type StaffBy } from '../../platform/audit/repo.ts';
import { withEvents } from '../../platform/bus.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { refundMail } from './mails.ts';
import * as pay from './repo/payments.ts';
import * as repo from './repo.ts';
import { type BillingDeps, providerKey } from './service.ts';
import { syncTier } from './tier.ts';

/** A payment that bought the subscription's current period: its first payment or its last renewal. */
function paysCurrentPeriod(p: NonNullable<Awaited<ReturnType<typeof pay.staffPayment>>>): boolean {
  const s = p.subscription;
  return (
    p.row.status !== 'failed' &&
    (p.row.kind === 'subscription' || p.row.kind === 'renewal') &&
    s !== null &&
    s.status !== 'canceled' &&
    !s.comp &&
    p.createdAt >= s.currentPeriodStart
  );
}

/** GET /admin/payments/:id: the payment, the subscription it paid for, its refunds, what is left. */
export async function paymentDetail(db: Db, id: string): Promise<AdminPaymentDetail> {
  const p = await pay.staffPayment(db, id);
  if (!p) throw notFound(RefundMessages.paymentNotFound);
  const s = p.subscription;
  return {
    ...p.row,
    refundable: p.row.status === 'failed' || !p.row.providerPaymentId ? 0 : Math.max(0, p.row.amount - p.row.refunded),
    subscription: s
      ? {
          id: s.id,
          planName: s.planName,
          status: s.status,
          currentPeriodStart: s.currentPeriodStart.toISOString(),
          currentPeriodEnd: s.currentPeriodEnd.toISOString(),
        }
      : null,
    paysCurrentPeriod: paysCurrentPeriod(p),
    refunds: (await pay.refundsOf(db, id)).map(pay.toRefund),
  };
}

export const listPayments = (db: Db, q: AdminPaymentsQuery): Promise<AdminPaymentsPage> => {
  if (q.from && q.to && q.from > q.to) throw badRequest(RefundMessages.badRange, { from: 'after to' });
  return pay.staffPayments(db, q);
};

/**
 * Refunds through the payment provider (admin payments, payments.edit). In one transaction that
 * holds the payment's row lock: a repeated key answers the refund it made; the amount (all that is
 * left when none is given) may not pass what is left of the payment; the provider refunds under a
 * key derived from ours, so a retry after a lost answer refunds once there too; the refund and its
 * audit row commit together. A full refund of the payment that bought the subscription's current
 * period ends the subscription now and the tier drops (docs/billing.md says why). The member gets
 * a refund receipt by mail after the commit.
 */
export async function refundPayment(deps: BillingDeps, paymentId: string, body: RefundBody, by: StaffBy): Promise<RefundAnswer> {
  const after: (() => void)[] = [];
  const answer = await withEvents(deps.db, deps.bus, async (trx, emit): Promise<RefundAnswer> => {
    const now = deps.clock.now();
    const p = await pay.lockPayment(trx, paymentId);
    if (!p) throw notFound(RefundMessages.paymentNotFound);
    const prior = await pay.refundByKey(trx, paymentId, body.idempotencyKey);
    if (prior) return { refund: pay.toRefund(prior), payment: await paymentDetail(trx, paymentId) };
    if (p.status !== 'completed' || !p.provider_payment_id) throw conflict(RefundMessages.notRefundable);
    const left = p.amount - (await pay.refundedAmount(trx, paymentId));
    if (left <= 0) throw conflict(RefundMessages.nothingLeft);
    const amount = body.amountCents ?? left;
    if (amount > left) throw badRequest(refundTooLarge(left), { amountCents: 'more than is left' });

    const done = await deps.provider.refund({
      paymentId: p.provider_payment_id,
      amountCents: amount,
      currency: p.currency,
      idempotencyKey: providerKey('refund', paymentId, body.idempotencyKey),
      reason: body.reason,
    });
    if (!done.ok) throw new AppError(402, 'refund_failed', `${RefundMessages.refundFailed}: the provider answered ${done.code}.`);

    const detail = await pay.staffPayment(trx, paymentId);
    const ends = amount === left && detail !== undefined && paysCurrentPeriod(detail) && detail.subscription !== null;
    const id = randomUUID();
    await pay.insertRefund(trx, {
      id,
      payment_id: paymentId,
      idempotency_key: body.idempotencyKey,
      amount,
      currency: p.currency,
      reason: body.reason,
      status: done.status,
      provider_refund_id: done.refundId,
      canceled_subscription: ends,
      admin_id: by.adminId,
      created_at: now,
      updated_at: now,
    });
    if (ends && detail?.subscription && p.user_id) {
      await repo.findSubscription(trx, detail.subscription.id, { lock: true });
      await repo.updateSubscription(trx, detail.subscription.id, {
        status: 'canceled',
        canceled_at: now,
        cancel_at_period_end: false,
        next_billing_date: null,
        next_retry_at: null,
        updated_at: now,
      });
      await syncTier(trx, p.user_id, now, emit);
    }
    await auditStaff(trx, by, {
      action: 'payment_refund',
      targetType: 'payment',
      targetId: paymentId,
      reason: `${body.reason} — ${formatPrice(amount)} of ${formatPrice(p.amount)}${ends ? '; the subscription it paid for ended' : ''}`,
      now,
    });
    const userId = p.user_id;
    if (userId) {
      const what = p.note ? `your ${p.note} payment of ${new Date(p.created_at).toISOString().slice(0, 10)}` : 'your payment';
      after.push(() =>
        deps.mail.sendLater(async () => {
          const email = await repo.userEmail(deps.db, userId);
          return email
            ? refundMail(email, {
                what,
                cents: amount,
                at: now,
                url: `${deps.config.publicUrl}/settings/payment`,
                pending: done.status === 'pending',
              })
            : null;
        }),
      );
    }
    const refund = await pay.refundByKey(trx, paymentId, body.idempotencyKey);
    return { refund: pay.toRefund(refund as pay.RefundRow), payment: await paymentDetail(trx, paymentId) };
  });
  for (const f of after) f();
  return answer;
}
