import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

/** SQL of the admin money screens: sums and counts only; core shapes them (finance.ts). */

/**
 * Net revenue by UTC day since `since`: completed payments, less the refunds made that day (a
 * refund counts on its own day; one the provider reported failed gave nothing back).
 */
export async function revenueByDay(db: Db, since: Date): Promise<{ day: string; cents: number }[]> {
  const paid = db
    .selectFrom('payments')
    .select(['created_at as at', 'amount as cents'])
    .where('status', '=', 'completed')
    .where('created_at', '>=', since);
  const back = db
    .selectFrom('payment_refunds')
    .select(['created_at as at', sql<number>`-amount`.as('cents')])
    .where('status', '!=', 'failed')
    .where('created_at', '>=', since);
  const rows = await db
    .selectFrom(paid.unionAll(back).as('t'))
    .select([sql<string>`to_char(t.at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'), sql<string>`sum(t.cents)`.as('cents')])
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
  return rows.map((r) => ({ day: r.day, cents: Number(r.cents) }));
}

/**
 * Net revenue since `since` by the plan paid for (one-time payments as one line): its completed
 * payments (counted) less the refunds made of its payments in the same days.
 */
export async function revenueByPlan(db: Db, since: Date): Promise<{ plan: string; cents: number; payments: number }[]> {
  const plan = sql<string>`coalesce(s.plan_name, 'One-time payments')`;
  const paid = db
    .selectFrom('payments as p')
    .leftJoin('subscriptions as s', 's.id', 'p.subscription_id')
    .select([plan.as('plan'), 'p.amount as cents', sql<number>`1`.as('n')])
    .where('p.status', '=', 'completed')
    .where('p.created_at', '>=', since);
  const back = db
    .selectFrom('payment_refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .leftJoin('subscriptions as s', 's.id', 'p.subscription_id')
    .select([plan.as('plan'), sql<number>`-r.amount`.as('cents'), sql<number>`0`.as('n')])
    .where('r.status', '!=', 'failed')
    .where('r.created_at', '>=', since);
  const rows = await db
    .selectFrom(paid.unionAll(back).as('t'))
    .select(['t.plan', sql<string>`sum(t.cents)`.as('cents'), sql<string>`sum(t.n)`.as('payments')])
    .groupBy('t.plan')
    .orderBy(sql`2`, 'desc')
    .orderBy('t.plan')
    .execute();
  return rows.map((r) => ({ plan: r.plan, cents: Number(r.cents), payments: Number(r.payments) }));
}

/** What refunds gave back since `since` (pending or completed). */
export async function refundsSince(db: Db, since: Date): Promise<number> {
  const r = await db
    .selectFrom('payment_refunds')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('n'))
    .where('status', '!=', 'failed')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The paid subscriptions not yet ended: what MRR and the forecast read. */
export function liveSubscriptions(db: Db) {
  return db
    .selectFrom('subscriptions')
    .select(['amount', 'status', 'cancel_at_period_end', 'comp', 'next_billing_date'])
    .where('status', '!=', 'canceled')
    .where('comp', '=', false)
    .execute();
}

/** For a month [start, end): paid subscriptions live at its start, and how many of those ended in it. */
export async function churnOfMonth(db: Db, start: Date, end: Date): Promise<{ liveAtStart: number; ended: number }> {
  const r = await db
    .selectFrom('subscriptions')
    .select([
      sql<string>`count(*) filter (where canceled_at is null or canceled_at >= ${start})`.as('live'),
      sql<string>`count(*) filter (where canceled_at >= ${start} and canceled_at < ${end})`.as('ended'),
    ])
    .where('comp', '=', false)
    .where('created_at', '<', start)
    .executeTakeFirstOrThrow();
  return { liveAtStart: Number(r.live), ended: Number(r.ended) };
}
