import { createHash, randomUUID } from 'node:crypto';
import {
  type Actor,
  BillingMessages,
  type Clock,
  type OneTimeBody,
  type PaymentAnswer,
  type PaymentMethod,
  prorationCents,
  SUBSCRIPTION_PERIOD_MS,
  type Subscription,
  type SubscriptionBody,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { type Bus, withEvents } from '../../platform/bus.ts';
import type { Config } from '../../platform/config.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { receiptMail } from './mails.ts';
import { planOnSale } from './plans.ts';
import * as repo from './repo.ts';
import { type Emit, syncTier } from './tier.ts';

export { grantStaffTier } from './staff.ts';

export interface BillingDeps {
  db: Db;
  bus: Bus;
  clock: Clock;
  mail: Mailer;
  provider: PaymentProvider;
  config: Pick<Config, 'payments' | 'publicUrl'>;
}

/** An answer of a payment call: its status and body, stored whole under its idempotency key. */
export interface Answer {
  status: number;
  body: PaymentAnswer;
}

/** The provider's idempotency key for ours: Square allows 45 characters. */
export const providerKey = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 40);

const failed = (error: string, customerId?: string): Answer => ({
  status: 402,
  body: { success: false, error, ...(customerId ? { customer_id: customerId } : {}) },
});

/**
 * The spec's payment calls (section 7) for real: subscriptions, one-time payments, cards. Every
 * call that charges runs in one transaction that first claims its idempotency key, so a retried
 * or racing request answers what the first answered and the card is charged once.
 */
export class BillingService {
  constructor(private readonly deps: BillingDeps) {}

  private async idempotent(
    userId: string,
    key: string,
    fn: (trx: Db, emit: Emit, after: (f: () => void) => void) => Promise<Answer>,
  ): Promise<Answer> {
    const after: (() => void)[] = [];
    const answer = await withEvents(this.deps.db, this.deps.bus, async (trx, emit) => {
      const prior = await repo.claimKey(trx, userId, key, this.deps.clock.now());
      if (prior) return { status: prior.status, body: prior.response as PaymentAnswer };
      const a = await fn(trx, emit, (f) => after.push(f));
      await repo.saveKey(trx, userId, key, a.status, a.body);
      return a;
    });
    for (const f of after) f();
    return answer;
  }

  private async ensureCustomer(trx: Db, userId: string): Promise<string> {
    const known = await repo.findCustomer(trx, userId);
    if (known) return known;
    const email = (await repo.userEmail(trx, userId)) ?? '';
    const id = await this.deps.provider.createCustomer({
      referenceId: userId,
      email,
      idempotencyKey: providerKey('customer', userId),
    });
    await repo.insertCustomer(trx, userId, this.deps.provider.kind, id, this.deps.clock.now());
    return id;
  }

  /** The card to charge: a saved card named by id, a new token saved first, or the default card. */
  private async resolveCard(trx: Db, userId: string, customerId: string, sourceId: string | undefined) {
    if (!sourceId) {
      const card = await repo.defaultCard(trx, userId);
      if (!card) throw badRequest(BillingMessages.cardRequired, { source_id: 'required' });
      return card;
    }
    const saved = await repo.findCard(trx, userId, sourceId);
    if (saved) return saved;
    const r = await this.deps.provider.saveCard({ customerId, sourceId, idempotencyKey: providerKey('card', userId, sourceId) });
    if (!r.ok) return null;
    const id = randomUUID();
    await repo.insertCard(trx, {
      id,
      userId,
      providerCardId: r.card.cardId,
      brand: r.card.brand,
      last4: r.card.last4,
      expMonth: r.card.expMonth,
      expYear: r.card.expYear,
      now: this.deps.clock.now(),
    });
    return repo.findCard(trx, userId, id);
  }

  /** POST /payments/subscription: charges the plan's first period and starts the subscription. */
  async startSubscription(actor: Actor, body: SubscriptionBody): Promise<Answer> {
    // The plan as sold now (staff edit it); the subscription keeps this price for its life.
    const plan = await planOnSale(this.deps.db, body.subscription_plan);
    if (!plan) throw badRequest(BillingMessages.invalidPlan, { subscription_plan: 'unknown' });
    if (body.amount_money.amount !== plan.priceCents)
      throw badRequest(BillingMessages.amountMismatch, { amount_money: 'not the price' });
    return this.idempotent(actor.id, body.idempotency_key, async (trx, emit, after) => {
      const now = this.deps.clock.now();
      await repo.lockBillingUser(trx, actor.id);
      if (await repo.liveSubscription(trx, actor.id)) throw conflict(BillingMessages.alreadySubscribed);
      const customerId = await this.ensureCustomer(trx, actor.id);
      const card = await this.resolveCard(trx, actor.id, customerId, body.source_id);
      const charged = card
        ? await this.deps.provider.charge({
            customerId,
            cardId: card.provider_card_id,
            amountCents: plan.priceCents,
            currency: plan.currency,
            idempotencyKey: providerKey('pay', actor.id, body.idempotency_key),
            note: `FMK ${plan.name}`,
          })
        : null;
      if (!charged?.ok) {
        await this.recordPayment(trx, actor.id, null, 'subscription', 'failed', plan.priceCents, null, plan.name);
        return failed(BillingMessages.paymentFailed, customerId);
      }
      const id = randomUUID();
      const end = new Date(now.getTime() + SUBSCRIPTION_PERIOD_MS);
      await repo
        .insertSubscription(trx, {
          id,
          user_id: actor.id,
          customer_id: customerId,
          plan_id: plan.id,
          plan_name: plan.name,
          status: 'active',
          current_period_start: now,
          current_period_end: end,
          next_billing_date: end,
          amount: plan.priceCents,
          currency: plan.currency,
          payment_method_id: card?.id ?? null,
          provider_subscription_id: null,
          created_at: now,
          updated_at: now,
        })
        .catch((e) => {
          throw e instanceof repo.SecondLiveSubscription ? conflict(BillingMessages.alreadySubscribed) : e;
        });
      const paymentId = await this.recordPayment(
        trx,
        actor.id,
        id,
        'subscription',
        'completed',
        plan.priceCents,
        charged.paymentId,
        plan.name,
      );
      await syncTier(trx, actor.id, now, emit);
      after(() => this.receipt(actor.id, `${plan.name} membership, first month`, plan.priceCents));
      const sub = repo.toSubscription((await repo.findSubscription(trx, id)) as repo.SubscriptionRow);
      return {
        status: 200,
        body: { success: true, payment_id: paymentId, subscription_id: id, customer_id: customerId, subscription: sub },
      };
    });
  }

  /**
   * POST /payments/one-time (Boost and other extras): one charge, no subscription. `paid` runs in
   * the charge's transaction once it succeeded (what the payment buys, such as a boost credit), so
   * a retried key neither charges nor grants twice.
   */
  async oneTime(actor: Actor, body: OneTimeBody, paid?: (trx: Db, paymentId: string) => Promise<void>): Promise<Answer> {
    return this.idempotent(actor.id, body.idempotency_key, async (trx, _emit, after) => {
      const customerId = await this.ensureCustomer(trx, actor.id);
      const card = await this.resolveCard(trx, actor.id, customerId, body.source_id);
      const note = body.note ?? null;
      const charged = card
        ? await this.deps.provider.charge({
            customerId,
            cardId: card.provider_card_id,
            amountCents: body.amount_money.amount,
            currency: body.amount_money.currency,
            idempotencyKey: providerKey('pay', actor.id, body.idempotency_key),
            ...(note ? { note } : {}),
          })
        : null;
      if (!charged?.ok) {
        await this.recordPayment(trx, actor.id, null, 'one_time', 'failed', body.amount_money.amount, null, note);
        return failed(BillingMessages.paymentFailed, customerId);
      }
      const paymentId = await this.recordPayment(
        trx,
        actor.id,
        null,
        'one_time',
        'completed',
        body.amount_money.amount,
        charged.paymentId,
        note,
      );
      await paid?.(trx, paymentId);
      after(() => this.receipt(actor.id, note ?? 'One-time payment', body.amount_money.amount));
      return { status: 200, body: { success: true, payment_id: paymentId, customer_id: customerId } };
    });
  }

  async recordPayment(
    trx: Db,
    userId: string,
    subscriptionId: string | null,
    kind: 'subscription' | 'renewal' | 'one_time' | 'proration',
    status: 'completed' | 'failed',
    amount: number,
    providerPaymentId: string | null,
    note: string | null,
  ): Promise<string> {
    const id = randomUUID();
    await repo.insertPayment(trx, {
      id,
      user_id: userId,
      subscription_id: subscriptionId,
      kind,
      status,
      amount,
      currency: 'USD',
      provider_payment_id: providerPaymentId,
      note,
      created_at: this.deps.clock.now(),
    });
    return id;
  }

  /** An email receipt for a payment, after the commit; the mailer never throws. */
  receipt(userId: string, what: string, cents: number): void {
    const at = this.deps.clock.now();
    this.deps.mail.sendLater(async () => {
      const email = await repo.userEmail(this.deps.db, userId);
      return email ? receiptMail(email, { what, cents, at, url: `${this.deps.config.publicUrl}/settings/payment` }) : null;
    });
  }

  /** The user's own subscription, locked when `lock`; 'Subscription not found' otherwise. */
  async own(trx: Db, actor: Actor, id: string, lock = false): Promise<repo.SubscriptionRow> {
    const s = await repo.findSubscription(trx, id, { lock });
    if (!s || s.user_id !== actor.id) throw notFound(BillingMessages.subscriptionNotFound);
    return s;
  }

  /** POST /subscriptions/:id/cancel: at the period's end (the tier stays until then) or now. */
  async cancel(actor: Actor, id: string, atPeriodEnd: boolean): Promise<{ status: number; body: PaymentAnswer }> {
    return withEvents(this.deps.db, this.deps.bus, async (trx, emit) => {
      const now = this.deps.clock.now();
      const s = await this.own(trx, actor, id, true);
      if (s.status === 'canceled') return failed(BillingMessages.cancellationFailed);
      await repo.updateSubscription(
        trx,
        id,
        atPeriodEnd
          ? { cancel_at_period_end: true, next_billing_date: null, updated_at: now }
          : { status: 'canceled', canceled_at: now, next_billing_date: null, next_retry_at: null, updated_at: now },
      );
      await syncTier(trx, actor.id, now, emit);
      return { status: 200, body: { success: true, subscription_id: id, subscription: await this.read(trx, id) } };
    });
  }

  /** POST /subscriptions/:id/reactivate (spec section 4): active again, the cancel flags cleared. */
  async reactivate(actor: Actor, id: string): Promise<{ status: number; body: PaymentAnswer }> {
    return withEvents(this.deps.db, this.deps.bus, async (trx, emit) => {
      const now = this.deps.clock.now();
      const s = await this.own(trx, actor, id, true);
      // An ended subscription is not revived without a charge: subscribe again.
      if (s.status === 'canceled') return failed(BillingMessages.updateFailed);
      if (s.comp) throw conflict(BillingMessages.compFixed);
      await repo.updateSubscription(trx, id, {
        cancel_at_period_end: false,
        canceled_at: null,
        next_billing_date: s.current_period_end,
        updated_at: now,
      });
      await syncTier(trx, actor.id, now, emit);
      return { status: 200, body: { success: true, subscription_id: id, subscription: await this.read(trx, id) } };
    });
  }

  /**
   * PUT /subscriptions/:id: a plan change. Proration (core `prorationCents`): an upgrade charges
   * the price difference for the rest of the period now; a downgrade charges nothing and bills the
   * lower price from the next renewal. The tier changes at once either way.
   */
  async update(
    actor: Actor,
    id: string,
    body: { plan_variation_id: string; price_override_money?: { amount: number } | undefined },
  ): Promise<Answer> {
    const plan = await planOnSale(this.deps.db, body.plan_variation_id);
    if (!plan) throw badRequest(BillingMessages.invalidPlanId, { plan_variation_id: 'unknown' });
    if (body.price_override_money && !actor.staff?.isActive) throw forbidden(BillingMessages.priceOverrideStaffOnly);
    const after: (() => void)[] = [];
    const answer = await withEvents(this.deps.db, this.deps.bus, async (trx, emit): Promise<Answer> => {
      const now = this.deps.clock.now();
      const s = await this.own(trx, actor, id, true);
      if (s.status === 'canceled') return failed(BillingMessages.updateFailed);
      // A staff grant is free: changing its plan would sell an upgrade from nothing.
      if (s.comp) throw conflict(BillingMessages.compFixed);
      const price = body.price_override_money?.amount ?? plan.priceCents;
      const due = prorationCents(s.amount, price, new Date(s.current_period_start), new Date(s.current_period_end), now);
      if (due > 0) {
        const card = s.payment_method_id
          ? await repo.findCard(trx, actor.id, s.payment_method_id)
          : await repo.defaultCard(trx, actor.id);
        const charged = card
          ? await this.deps.provider.charge({
              customerId: s.customer_id,
              cardId: card.provider_card_id,
              amountCents: due,
              currency: s.currency,
              idempotencyKey: providerKey('proration', id, plan.id, new Date(s.current_period_start).toISOString()),
              note: `FMK ${plan.name} (prorated)`,
            })
          : null;
        if (!charged?.ok) {
          await this.recordPayment(trx, actor.id, id, 'proration', 'failed', due, null, plan.name);
          return failed(BillingMessages.updateFailed);
        }
        await this.recordPayment(trx, actor.id, id, 'proration', 'completed', due, charged.paymentId, `${plan.name} (prorated)`);
        after.push(() => this.receipt(actor.id, `Change to ${plan.name}, rest of this month`, due));
      }
      await repo.updateSubscription(trx, id, { plan_id: plan.id, plan_name: plan.name, amount: price, updated_at: now });
      await syncTier(trx, actor.id, now, emit);
      return {
        status: 200,
        body: { success: true, subscription_id: id, customer_id: s.customer_id, subscription: await this.read(trx, id) },
      };
    });
    for (const f of after) f();
    return answer;
  }

  private async read(db: Db, id: string): Promise<Subscription> {
    return repo.toSubscription((await repo.findSubscription(db, id)) as repo.SubscriptionRow);
  }

  async get(actor: Actor, id: string): Promise<Subscription> {
    return repo.toSubscription(await this.own(this.deps.db, actor, id));
  }

  /** GET /customers/:id/subscriptions: only the caller's own customer. */
  async listForCustomer(actor: Actor, customerId: string): Promise<Subscription[]> {
    if ((await repo.findCustomer(this.deps.db, actor.id)) !== customerId) throw notFound(BillingMessages.subscriptionNotFound);
    return (await repo.listSubscriptions(this.deps.db, actor.id)).map(repo.toSubscription);
  }

  async addCard(actor: Actor, sourceId: string): Promise<{ status: number; cards: PaymentMethod[]; error?: string }> {
    return this.deps.db.transaction().execute(async (trx) => {
      const customerId = await this.ensureCustomer(trx, actor.id);
      const card = await this.resolveCard(trx, actor.id, customerId, sourceId);
      const cards = (await repo.listCards(trx, actor.id)).map(repo.toCard);
      return card ? { status: 200, cards } : { status: 402, cards, error: BillingMessages.paymentFailed };
    });
  }

  async removeCard(actor: Actor, id: string): Promise<PaymentMethod[]> {
    return this.deps.db.transaction().execute(async (trx) => {
      const card = await repo.findCard(trx, actor.id, id);
      if (!card) throw notFound(BillingMessages.cardNotFound);
      await this.deps.provider.disableCard(card.provider_card_id);
      await repo.deleteCard(trx, actor.id, id);
      return (await repo.listCards(trx, actor.id)).map(repo.toCard);
    });
  }

  async setDefaultCard(actor: Actor, id: string): Promise<PaymentMethod[]> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.findCard(trx, actor.id, id))) throw notFound(BillingMessages.cardNotFound);
      await repo.setDefaultCard(trx, actor.id, id);
      return (await repo.listCards(trx, actor.id)).map(repo.toCard);
    });
  }
}
