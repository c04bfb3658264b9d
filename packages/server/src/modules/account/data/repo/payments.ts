import { sql } from 'kysely';
import type { Db } from '../../../../db/index.ts';

/**
 * His payments, the refunds of them (not who in the team made one), subscriptions (paid, or given
 * by staff: `comp`), saved cards (brand, last 4 digits and expiry: all we hold of a card) and boosts.
 */
export async function paymentRows(db: Db, userId: string) {
  return {
    payments: await db
      .selectFrom('payments')
      .select(['id', 'kind', 'status', 'amount', 'currency', 'subscription_id', 'note', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    refunds: await db
      .selectFrom('payment_refunds as r')
      .innerJoin('payments as p', 'p.id', 'r.payment_id')
      .select([
        'r.id',
        'r.payment_id',
        'r.amount',
        'r.currency',
        'r.reason',
        'r.status',
        'r.canceled_subscription',
        'r.created_at',
      ])
      .where('p.user_id', '=', userId)
      .orderBy('r.created_at')
      .execute(),
    subscriptions: await db
      .selectFrom('subscriptions')
      .select([
        'id',
        'plan_id',
        'plan_name',
        'status',
        'amount',
        'currency',
        'current_period_start',
        'current_period_end',
        'cancel_at_period_end',
        'canceled_at',
        'comp',
        'created_at',
      ])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    cards: await db
      .selectFrom('payment_methods')
      .select(['brand', 'last4', 'expiry_month', 'expiry_year', 'is_default', 'created_at'])
      .where('user_id', '=', userId)
      .execute(),
    // His boosts and how many men each reached (who they were is theirs); bought ones not yet used.
    boosts: await db
      .selectFrom('boosts as b')
      .select((eb) => [
        'b.source',
        'b.started_at',
        'b.ends_at',
        eb
          .selectFrom('boost_views as v')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('v.boost_id', '=', 'b.id')
          .as('views'),
      ])
      .where('b.user_id', '=', userId)
      .orderBy('b.started_at')
      .execute(),
    unusedBoosts: Number(
      (
        await db
          .selectFrom('boost_credits')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('user_id', '=', userId)
          .where('used_at', 'is', null)
          .executeTakeFirst()
      )?.n ?? 0,
    ),
  };
}
