import type { PaymentMethod, PaymentRecord, Subscription } from '@fmk/core';
import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { PaymentsTable, SubscriptionsTable } from '../../db/schema.ts';

/** SQL of billing: customers, cards, subscriptions, payments, idempotency keys, webhook events. */

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export async function findCustomer(db: Db, userId: string): Promise<string | undefined> {
  const r = await db.selectFrom('billing_customers').select('customer_id').where('user_id', '=', userId).executeTakeFirst();
  return r?.customer_id;
}

export async function insertCustomer(db: Db, userId: string, provider: string, customerId: string, now: Date): Promise<void> {
  await db
    .insertInto('billing_customers')
    .values({ user_id: userId, provider, customer_id: customerId, created_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export async function userEmail(db: Db, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email;
}

// Cards ------------------------------------------------------------------------------------

const cardColumns = [
  'id',
  'provider_card_id',
  'brand',
  'last4',
  'expiry_month',
  'expiry_year',
  'is_default',
  'created_at',
] as const;
type CardRow = {
  id: string;
  provider_card_id: string;
  brand: string;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  is_default: boolean;
  created_at: Date;
};

export const toCard = (r: CardRow): PaymentMethod => ({
  id: r.id,
  type: 'card',
  last4: r.last4,
  brand: r.brand,
  expiryMonth: r.expiry_month,
  expiryYear: r.expiry_year,
  isDefault: r.is_default,
  createdAt: new Date(r.created_at).toISOString(),
});

export function listCards(db: Db, userId: string): Promise<CardRow[]> {
  return db
    .selectFrom('payment_methods')
    .select(cardColumns)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findCard(db: Db, userId: string, id: string): Promise<CardRow | undefined> {
  return db
    .selectFrom('payment_methods')
    .select(cardColumns)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function defaultCard(db: Db, userId: string): Promise<CardRow | undefined> {
  return db
    .selectFrom('payment_methods')
    .select(cardColumns)
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function insertCard(
  db: Db,
  c: {
    id: string;
    userId: string;
    providerCardId: string;
    brand: string;
    last4: string;
    expMonth: number;
    expYear: number;
    now: Date;
  },
): Promise<void> {
  const hasDefault = await db
    .selectFrom('payment_methods')
    .select('id')
    .where('user_id', '=', c.userId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  await db
    .insertInto('payment_methods')
    .values({
      id: c.id,
      user_id: c.userId,
      provider_card_id: c.providerCardId,
      brand: c.brand,
      last4: c.last4,
      expiry_month: c.expMonth,
      expiry_year: c.expYear,
      is_default: !hasDefault,
      created_at: c.now,
    })
    .execute();
}

export async function setDefaultCard(db: Db, userId: string, id: string): Promise<void> {
  await db
    .updateTable('payment_methods')
    .set({ is_default: sql<boolean>`id = ${id}` })
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteCard(db: Db, userId: string, id: string): Promise<void> {
  await db.deleteFrom('payment_methods').where('user_id', '=', userId).where('id', '=', id).execute();
  // The newest remaining card becomes the default when the default went.
  const left = await defaultCard(db, userId);
  if (left && !left.is_default) await setDefaultCard(db, userId, left.id);
}

// Subscriptions -----------------------------------------------------------------------------

export type SubscriptionRow = Selectable<SubscriptionsTable>;

export const toSubscription = (r: SubscriptionRow): Subscription => ({
  id: r.id,
  planId: r.plan_id,
  planName: r.plan_name,
  status: r.status,
  currentPeriodStart: iso(r.current_period_start) as string,
  currentPeriodEnd: iso(r.current_period_end) as string,
  nextBillingDate: iso(r.next_billing_date),
  amount: r.amount,
  currency: r.currency,
  paymentMethodId: r.payment_method_id,
  createdAt: iso(r.created_at) as string,
  cancelAtPeriodEnd: r.cancel_at_period_end,
  canceledAt: iso(r.canceled_at),
  comp: r.comp,
});

/** What core's tierFromSubscriptions reads of a subscription. */
export const toGrant = (s: SubscriptionRow) => ({
  planId: s.plan_id,
  status: s.status,
  cancelAtPeriodEnd: s.cancel_at_period_end,
  currentPeriodEnd: new Date(s.current_period_end),
  comp: s.comp,
});

/** The unique index that keeps one live paid subscription per user refused the row. */
export class SecondLiveSubscription extends Error {}

export async function insertSubscription(db: Db, row: Insertable<SubscriptionsTable>): Promise<void> {
  try {
    await db.insertInto('subscriptions').values(row).execute();
  } catch (e) {
    if ((e as { code?: string }).code === '23505' && String((e as Error).message).includes('subscriptions_one_live'))
      throw new SecondLiveSubscription();
    throw e;
  }
}

/**
 * Serialises one user's checkouts: the second of two racing requests (different idempotency
 * keys) waits here, then sees the first's subscription and charges nothing. NO KEY UPDATE, not
 * UPDATE: the idempotency key row already holds a key-share lock on the user (its foreign key),
 * and two checkouts each holding one and asking FOR UPDATE would deadlock.
 */
export async function lockBillingUser(db: Db, userId: string): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirst();
}

export function findSubscription(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<SubscriptionRow | undefined> {
  const q = db.selectFrom('subscriptions').selectAll().where('id', '=', id);
  return (opts.lock ? q.forUpdate() : q).executeTakeFirst() as Promise<SubscriptionRow | undefined>;
}

/** Takes his subscriptions' lock: staff changes of one member run one after the other. */
export async function lockUser(db: Db, userId: string): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export function listSubscriptions(db: Db, userId: string): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute() as Promise<SubscriptionRow[]>;
}

export function liveSubscription(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return (
    db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '!=', 'canceled')
      // A staff grant does not stop him paying for a plan of his own.
      .where('comp', '=', false)
      .orderBy('created_at', 'desc')
      .executeTakeFirst() as Promise<SubscriptionRow | undefined>
  );
}

export async function updateSubscription(db: Db, id: string, patch: Updateable<SubscriptionsTable>): Promise<void> {
  await db.updateTable('subscriptions').set(patch).where('id', '=', id).execute();
}

/** Subscriptions whose period ended (or whose retry is due) at `now`: the renewal job's work. */
export async function dueSubscriptions(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'active'), eb('current_period_end', '<=', now)]),
        eb.and([eb('status', '=', 'past_due'), eb('next_retry_at', '<=', now)]),
      ]),
    )
    .orderBy('current_period_end')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

// Payments ----------------------------------------------------------------------------------

export async function insertPayment(db: Db, p: Omit<PaymentsTable, 'created_at'> & { created_at: Date }): Promise<void> {
  await db.insertInto('payments').values(p).execute();
}

export async function listPayments(db: Db, userId: string): Promise<PaymentRecord[]> {
  const rows = await db
    .selectFrom('payments')
    .select(['id', 'kind', 'status', 'amount', 'currency', 'note', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(100)
    .execute();
  return rows.map((r) => ({ ...r, amount: Number(r.amount), createdAt: new Date(r.created_at).toISOString() }));
}

export function paymentByProviderId(db: Db, providerPaymentId: string) {
  return db.selectFrom('payments').selectAll().where('provider_payment_id', '=', providerPaymentId).executeTakeFirst();
}

export async function setPaymentStatus(db: Db, id: string, status: 'completed' | 'failed'): Promise<void> {
  await db.updateTable('payments').set({ status }).where('id', '=', id).execute();
}

// Idempotency and webhook events -------------------------------------------------------------

/**
 * Claims a key in the caller's transaction, or answers what its first use answered. A racing
 * second claim waits on the key's unique index until the first commits, then reads its answer.
 */
export async function claimKey(
  db: Db,
  userId: string,
  key: string,
  now: Date,
): Promise<{ status: number; response: unknown } | null> {
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, status_code: 0, response: '{}', created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (claimed) return null;
  const r = await db
    .selectFrom('idempotency_keys')
    .select(['status_code', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return { status: r.status_code, response: r.response };
}

export async function saveKey(db: Db, userId: string, key: string, status: number, response: unknown): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: status, response: JSON.stringify(response) })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

/** Records a webhook event; false when it was processed before (replays change nothing). */
export async function claimEvent(db: Db, eventId: string, type: string, now: Date): Promise<boolean> {
  const r = await db
    .insertInto('webhook_events')
    .values({ event_id: eventId, type, received_at: now })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return Boolean(r);
}

// Tier ------------------------------------------------------------------------------------

export async function setTier(db: Db, userId: string, tier: 'free' | 'premium' | 'platinum'): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ subscription_tier: tier })
    .where('id', '=', userId)
    .where('subscription_tier', '!=', tier)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function lifetimePremium(db: Db, userId: string): Promise<boolean> {
  return Boolean(
    (await db.selectFrom('users').select('has_lifetime_premium').where('id', '=', userId).executeTakeFirst())
      ?.has_lifetime_premium,
  );
}
