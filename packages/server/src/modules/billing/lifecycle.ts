import { MINUTE, RENEWAL_RETRY_DAYS, SUBSCRIPTION_PERIOD_MS } from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import { withEvents } from '../../platform/bus.ts';
import { unauthorized } from '../../platform/errors.ts';
import { IntervalJob } from '../../platform/jobs.ts';
import type { ProviderEvent } from '../../platform/payments/provider.ts';
import { settleRefund } from './repo/payments.ts';
import * as repo from './repo.ts';
import { type BillingDeps, type BillingService, providerKey } from './service.ts';
import { syncTier } from './tier.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 50;

/**
 * The subscription lifecycle the server runs by itself, with no member online: at a period's end a
 * subscription canceled at period end, or a complimentary one from staff, ends (the tier drops);
 * any other is renewed by charging
 * its card (or the default card). A failed renewal makes it past_due, keeping the tier, and is
 * retried RENEWAL_RETRY_DAYS after the period's end; after the last failure it is canceled and
 * the tier drops to free (premium for a beta user with lifetime premium).
 */
export class BillingLifecycle {
  private readonly job: IntervalJob;

  constructor(
    private readonly deps: BillingDeps & { log?: FastifyBaseLogger },
    private readonly service: BillingService,
  ) {
    this.job = new IntervalJob(() => this.runDue(), { name: 'billing renewals', log: deps.log, everyMs: MINUTE });
  }

  /** One pass over every subscription due at the clock's now; answers how many it handled. */
  async runDue(): Promise<number> {
    const now = this.deps.clock.now();
    let handled = 0;
    for (;;) {
      const ids = await repo.dueSubscriptions(this.deps.db, now, BATCH);
      for (const id of ids) if (await this.renew(id, now)) handled += 1;
      if (ids.length < BATCH) return handled;
    }
  }

  private async renew(id: string, now: Date): Promise<boolean> {
    const after: (() => void)[] = [];
    const done = await withEvents(this.deps.db, this.deps.bus, async (trx, emit) => {
      const s = await repo.findSubscription(trx, id, { lock: true });
      const end = s ? new Date(s.current_period_end) : null;
      if (!s || !end) return false;
      const due =
        (s.status === 'active' && end <= now) ||
        (s.status === 'past_due' && s.next_retry_at !== null && new Date(s.next_retry_at) <= now);
      if (!due) return false;
      // Canceled at its end, or a staff grant (never charged): it lapses instead of renewing.
      if (s.cancel_at_period_end || s.comp) {
        await repo.updateSubscription(trx, id, {
          status: 'canceled',
          canceled_at: end,
          next_billing_date: null,
          updated_at: now,
        });
        await syncTier(trx, s.user_id, now, emit);
        return true;
      }
      const card =
        (s.payment_method_id && (await repo.findCard(trx, s.user_id, s.payment_method_id))) ||
        (await repo.defaultCard(trx, s.user_id));
      const charged = card
        ? await this.deps.provider.charge({
            customerId: s.customer_id,
            cardId: card.provider_card_id,
            amountCents: s.amount,
            currency: s.currency,
            idempotencyKey: providerKey('renew', id, end.toISOString(), String(s.failed_attempts)),
            note: `FMK ${s.plan_name} renewal`,
          })
        : null;
      if (charged?.ok) {
        // Paid on time, the next period follows on; paid on a retry, it starts now.
        const start = s.status === 'past_due' ? now : end;
        const next = new Date(start.getTime() + SUBSCRIPTION_PERIOD_MS);
        await repo.updateSubscription(trx, id, {
          status: 'active',
          current_period_start: start,
          current_period_end: next,
          next_billing_date: next,
          failed_attempts: 0,
          next_retry_at: null,
          updated_at: now,
        });
        await this.service.recordPayment(trx, s.user_id, id, 'renewal', 'completed', s.amount, charged.paymentId, s.plan_name);
        after.push(() => this.service.receipt(s.user_id, `${s.plan_name} membership, one more month`, s.amount));
      } else {
        await this.service.recordPayment(trx, s.user_id, id, 'renewal', 'failed', s.amount, null, s.plan_name);
        await this.markFailed(trx, s, now);
      }
      await syncTier(trx, s.user_id, now, emit);
      return true;
    });
    for (const f of after) f();
    return done;
  }

  /** One more failed attempt: past_due with the next retry, or canceled after the last. */
  private async markFailed(
    trx: Parameters<typeof repo.updateSubscription>[0],
    s: repo.SubscriptionRow,
    now: Date,
  ): Promise<void> {
    const attempts = s.failed_attempts + 1;
    const retryIn = RENEWAL_RETRY_DAYS[attempts - 1];
    const end = new Date(s.current_period_end);
    await repo.updateSubscription(
      trx,
      s.id,
      retryIn === undefined
        ? {
            status: 'canceled',
            canceled_at: now,
            failed_attempts: attempts,
            next_retry_at: null,
            next_billing_date: null,
            updated_at: now,
          }
        : {
            status: 'past_due',
            failed_attempts: attempts,
            next_retry_at: new Date(Math.max(end.getTime() + retryIn * DAY_MS, now.getTime())),
            updated_at: now,
          },
    );
  }

  /**
   * A provider webhook: the signature checked against the raw body and the URL it was sent to,
   * each event id handled once (a replay answers processed: false and changes nothing). A payment
   * the provider reports FAILED or CANCELED after the fact puts its subscription past_due; a
   * pending refund settles as the provider's `refund.created` / `refund.updated` says (COMPLETED,
   * or REJECTED / FAILED: then it gave nothing back).
   */
  async webhook(raw: string, signature: string | undefined, url: string): Promise<{ processed: boolean }> {
    if (!(await this.deps.provider.verifyWebhook(raw, signature, url))) throw unauthorized('Invalid webhook signature');
    let event: ProviderEvent;
    try {
      event = JSON.parse(raw) as ProviderEvent;
    } catch {
      throw unauthorized('Invalid webhook body');
    }
    if (typeof event?.event_id !== 'string' || typeof event.type !== 'string') throw unauthorized('Invalid webhook body');
    return this.handle(event);
  }

  async handle(event: ProviderEvent): Promise<{ processed: boolean }> {
    return withEvents(this.deps.db, this.deps.bus, async (trx, emit) => {
      const now = this.deps.clock.now();
      if (!(await repo.claimEvent(trx, event.event_id, event.type, now))) return { processed: false };
      const refund = event.data?.object?.refund;
      if ((event.type === 'refund.updated' || event.type === 'refund.created') && refund) {
        if (refund.status === 'COMPLETED') await settleRefund(trx, refund.id, 'completed', now);
        if (refund.status === 'REJECTED' || refund.status === 'FAILED') await settleRefund(trx, refund.id, 'failed', now);
        return { processed: true };
      }
      const p = event.data?.object?.payment;
      if (event.type !== 'payment.updated' || !p) return { processed: true };
      const ours = await repo.paymentByProviderId(trx, p.id);
      if (!ours) return { processed: true };
      if ((p.status === 'FAILED' || p.status === 'CANCELED') && ours.status === 'completed') {
        await repo.setPaymentStatus(trx, ours.id, 'failed');
        const s = ours.subscription_id ? await repo.findSubscription(trx, ours.subscription_id, { lock: true }) : undefined;
        if (s && s.status === 'active') {
          await this.markFailed(trx, s, now);
          await syncTier(trx, s.user_id, now, emit);
        }
      }
      return { processed: true };
    });
  }

  start(intervalMs?: number): void {
    this.job.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }
}
