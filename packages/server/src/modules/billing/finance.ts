import {
  churnRate,
  DAY,
  type Financial,
  type FinancialQuery,
  FORECAST_METHOD,
  fillDays,
  forecastRevenue,
  monthlyRecurring,
  observedChurn,
  pastMonthStarts,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { churnOfMonth, liveSubscriptions, refundsSince, revenueByDay, revenueByPlan } from './repo/finance.ts';

/** How many past months the observed churn averages. */
const CHURN_MONTHS = 6;

/** The admin money figures: the database sums (revenue net of refunds), core shapes them and makes the forecast. */
export async function financial(db: Db, q: FinancialQuery, now: Date): Promise<Financial> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (q.days - 1) * DAY);
  const days = fillDays(await revenueByDay(db, since), now, q.days);
  const byPlan = await revenueByPlan(db, since);
  const live = (await liveSubscriptions(db)).map((s) => ({
    amount: s.amount,
    status: s.status,
    cancelAtPeriodEnd: s.cancel_at_period_end,
    comp: s.comp,
    nextBillingDate: s.next_billing_date ? new Date(s.next_billing_date) : null,
  }));
  const churn = [];
  for (const start of pastMonthStarts(now, CHURN_MONTHS)) {
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    const c = await churnOfMonth(db, start, end);
    churn.push({ month: start.toISOString().slice(0, 7), ...c, rate: churnRate(c.liveAtStart, c.ended) });
  }
  const observed = observedChurn(churn);
  return {
    now: now.toISOString(),
    mrr: monthlyRecurring(live),
    payingSubscriptions: live.length,
    revenueDays: q.days,
    revenueTotal: days.reduce((n, d) => n + d.cents, 0),
    refundsTotal: await refundsSince(db, since),
    revenueByDay: days,
    revenueByPlan: byPlan,
    churn,
    observedChurn: observed,
    forecast: forecastRevenue(live, observed, now, q.months),
    method: FORECAST_METHOD,
  };
}
