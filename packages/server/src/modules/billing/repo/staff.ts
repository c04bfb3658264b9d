import {
  ADMIN_SUBSCRIPTIONS_PAGE,
  type AdminSubscriptionRow,
  type AdminSubscriptionsPage,
  type AdminSubscriptionsQuery,
  STAFF_SUBSCRIPTION_STATUSES,
} from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

/** SQL of the staff's subscriptions list: search, filters and paging in the database. */

const iso = (d: Date | string) => new Date(d).toISOString();

export async function staffSubscriptions(db: Db, q: AdminSubscriptionsQuery): Promise<AdminSubscriptionsPage> {
  const term = q.q?.trim();
  let base = db.selectFrom('subscriptions as s').innerJoin('users as u', 'u.id', 's.user_id');
  if (term) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([eb('u.anonymous_id', 'ilike', like), eb('u.display_name', 'ilike', like), eb('s.id', '=', term)]),
    );
  }
  if (q.status) base = base.where('s.status', '=', q.status);
  if (q.plan) base = base.where('s.plan_id', '=', q.plan);
  const offset = (q.page - 1) * ADMIN_SUBSCRIPTIONS_PAGE;
  const rows = await base
    .select([
      's.id',
      's.user_id',
      'u.anonymous_id',
      'u.display_name',
      's.plan_id',
      's.plan_name',
      's.status',
      's.amount',
      's.currency',
      's.cancel_at_period_end',
      's.comp',
      's.current_period_end',
      's.created_at',
    ])
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id')
    .limit(ADMIN_SUBSCRIPTIONS_PAGE)
    .offset(offset)
    .execute();
  const total = await base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const counts = await db
    .selectFrom('subscriptions')
    .select(['status', sql<string>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  const byStatus = Object.fromEntries(STAFF_SUBSCRIPTION_STATUSES.map((s) => [s, 0])) as AdminSubscriptionsPage['counts'];
  for (const c of counts) byStatus[c.status] = Number(c.n);
  return {
    rows: rows.map(
      (r): AdminSubscriptionRow => ({
        id: r.id,
        userId: r.user_id,
        anonymousId: r.anonymous_id,
        displayName: r.display_name,
        planId: r.plan_id,
        planName: r.plan_name,
        status: r.status,
        amount: r.amount,
        currency: r.currency,
        cancelAtPeriodEnd: r.cancel_at_period_end,
        comp: r.comp,
        currentPeriodEnd: iso(r.current_period_end),
        createdAt: iso(r.created_at),
      }),
    ),
    total: Number(total.n),
    page: q.page,
    pageSize: ADMIN_SUBSCRIPTIONS_PAGE,
    counts: byStatus,
  };
}
