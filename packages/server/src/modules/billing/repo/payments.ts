import {
  ADMIN_PAYMENTS_PAGE,
  type AdminPaymentRow,
  type AdminPaymentsPage,
  type AdminPaymentsQuery,
  type AdminRefund,
  ONE_TIME_PLAN,
  type PaymentRecord,
  staffPaymentStatus,
} from '@fmk/core';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { PaymentRefundsTable } from '../../../db/schema.ts';

/** SQL of the staff's payments list, one payment, its refunds, and the member's refund lines. */

const iso = (d: Date | string) => new Date(d).toISOString();
const DAY_MS = 86_400_000;

/** What was given back of payment `p`: its refunds that did not fail. */
const refundedOf = sql<string>`(select coalesce(sum(r.amount), 0) from payment_refunds r where r.payment_id = p.id and r.status <> 'failed')`;

function base(db: Db) {
  return db
    .selectFrom('payments as p')
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('subscriptions as s', 's.id', 'p.subscription_id');
}

const rowColumns = [
  'p.id',
  'p.provider_payment_id',
  'p.user_id',
  'u.anonymous_id',
  'u.display_name',
  'p.kind',
  's.plan_name',
  'p.note',
  'p.amount',
  'p.currency',
  'p.status',
  'p.created_at',
] as const;

type RawRow = {
  id: string;
  provider_payment_id: string | null;
  user_id: string | null;
  anonymous_id: string | null;
  display_name: string | null;
  kind: AdminPaymentRow['kind'];
  plan_name: string | null;
  note: string | null;
  amount: number;
  currency: string;
  status: 'completed' | 'failed';
  created_at: Date | string;
  refunded: string | number;
};

const toRow = (r: RawRow): AdminPaymentRow => {
  const refunded = Number(r.refunded);
  return {
    id: r.id,
    providerPaymentId: r.provider_payment_id,
    userId: r.user_id,
    anonymousId: r.anonymous_id,
    displayName: r.display_name,
    kind: r.kind,
    planName: r.plan_name,
    note: r.note,
    amount: Number(r.amount),
    refunded,
    currency: r.currency,
    status: staffPaymentStatus(r.status, Number(r.amount), refunded),
    createdAt: iso(r.created_at),
  };
};

/** The staff list: search, filters (status as staff see it, plan, UTC days) and paging in the database. */
export async function staffPayments(db: Db, q: AdminPaymentsQuery): Promise<AdminPaymentsPage> {
  let list = base(db);
  const term = q.q?.trim();
  if (term) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    list = list.where((eb) =>
      eb.or([
        eb('u.anonymous_id', 'ilike', like),
        eb('u.display_name', 'ilike', like),
        eb('p.id', '=', term),
        eb('p.provider_payment_id', '=', term),
      ]),
    );
  }
  if (q.status === 'failed') list = list.where('p.status', '=', 'failed');
  else if (q.status) {
    list = list.where('p.status', '=', 'completed');
    if (q.status === 'completed') list = list.where(sql<boolean>`${refundedOf} = 0`);
    if (q.status === 'partially_refunded') list = list.where(sql<boolean>`${refundedOf} > 0 and ${refundedOf} < p.amount`);
    if (q.status === 'refunded') list = list.where(sql<boolean>`${refundedOf} >= p.amount`);
  }
  if (q.plan === ONE_TIME_PLAN) list = list.where('p.kind', '=', 'one_time');
  else if (q.plan) list = list.where('s.plan_id', '=', q.plan);
  if (q.from) list = list.where('p.created_at', '>=', new Date(`${q.from}T00:00:00Z`));
  if (q.to) list = list.where('p.created_at', '<', new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS));
  const rows = await list
    .select([...rowColumns, refundedOf.as('refunded')])
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id')
    .limit(ADMIN_PAYMENTS_PAGE)
    .offset((q.page - 1) * ADMIN_PAYMENTS_PAGE)
    .execute();
  const total = await list.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return {
    rows: rows.map((r) => toRow(r as RawRow)),
    total: Number(total.n),
    page: q.page,
    pageSize: ADMIN_PAYMENTS_PAGE,
  };
}

/** One payment as staff see it, and the subscription it paid for. */
export async function staffPayment(db: Db, id: string) {
  const r = await base(db)
    .select([
      ...rowColumns,
      refundedOf.as('refunded'),
      's.id as sub_id',
      's.status as sub_status',
      's.comp as sub_comp',
      's.current_period_start as sub_start',
      's.current_period_end as sub_end',
    ])
    .where('p.id', '=', id)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    row: toRow(r as RawRow),
    createdAt: new Date(r.created_at),
    subscription:
      r.sub_id && r.sub_status && r.sub_start && r.sub_end && r.plan_name
        ? {
            id: r.sub_id,
            planName: r.plan_name,
            status: r.sub_status,
            comp: Boolean(r.sub_comp),
            currentPeriodStart: new Date(r.sub_start),
            currentPeriodEnd: new Date(r.sub_end),
          }
        : null,
  };
}

/** The payment row itself, locked: refunds of one payment run one after the other. */
export function lockPayment(db: Db, id: string) {
  return db.selectFrom('payments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** What was given back of a payment so far (refunds that did not fail). */
export async function refundedAmount(db: Db, paymentId: string): Promise<number> {
  const r = await db
    .selectFrom('payment_refunds')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('n'))
    .where('payment_id', '=', paymentId)
    .where('status', '!=', 'failed')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export type RefundRow = Selectable<PaymentRefundsTable>;

export const toRefund = (r: RefundRow): AdminRefund => ({
  id: r.id,
  amount: Number(r.amount),
  reason: r.reason,
  status: r.status,
  providerRefundId: r.provider_refund_id,
  canceledSubscription: r.canceled_subscription,
  createdAt: iso(r.created_at),
});

export function refundByKey(db: Db, paymentId: string, key: string): Promise<RefundRow | undefined> {
  return db
    .selectFrom('payment_refunds')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst() as Promise<RefundRow | undefined>;
}

export function refundsOf(db: Db, paymentId: string): Promise<RefundRow[]> {
  return db
    .selectFrom('payment_refunds')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('created_at')
    .orderBy('id')
    .execute() as Promise<RefundRow[]>;
}

export async function insertRefund(db: Db, row: Insertable<PaymentRefundsTable>): Promise<void> {
  await db.insertInto('payment_refunds').values(row).execute();
}

/** A provider's word on a refund (its webhook): pending ones settle; a settled one stays. */
export async function settleRefund(
  db: Db,
  providerRefundId: string,
  status: 'completed' | 'failed',
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('payment_refunds')
    .set({ status, updated_at: now })
    .where('provider_refund_id', '=', providerRefundId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The member's own refund lines for his payment history, newest first. */
export async function memberRefunds(db: Db, userId: string): Promise<PaymentRecord[]> {
  const rows = await db
    .selectFrom('payment_refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .select(['r.id', 'r.amount', 'r.currency', 'r.status', 'r.created_at', 'p.note'])
    .where('p.user_id', '=', userId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id')
    .limit(100)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: 'refund' as const,
    status: r.status,
    amount: Number(r.amount),
    currency: r.currency,
    note: r.note,
    createdAt: iso(r.created_at),
  }));
}
