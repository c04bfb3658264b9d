import { SUBSCRIPTION_PERIOD_MS } from './billing.ts';

/**
 * The admin money screens' figures (financial, financial/revenue, financial/forecasting). The
 * database sums and counts; these pure steps shape the figures and make the forecast, so the
 * method is tested here and stated on the screen in the same words.
 */

/** A subscription as the forecast sees it. */
export interface ForecastSub {
  amount: number;
  status: 'active' | 'past_due' | 'canceled';
  cancelAtPeriodEnd: boolean;
  comp: boolean;
  /** The next charge, null when nothing renews. */
  nextBillingDate: Date | null;
}

export interface ForecastMonth {
  /** 'YYYY-MM' (UTC). */
  month: string;
  /** Expected cents, after churn, rounded. */
  expected: number;
  /** Renewals due that month if nobody left. */
  renewals: number;
  /** What those renewals would bring if nobody left, in cents. */
  ceiling: number;
}

export const FORECAST_METHOD =
  'Each paying subscription that will renew (not canceled, not ending at its period end, not given by staff) ' +
  'is charged its own price every 30 days from its next billing date. Each renewal counts at the chance the ' +
  'member is still subscribed: (1 − monthly churn) raised to the number of renewals up to it, where monthly churn ' +
  'is the average share of subscriptions that ended in each of the last months observed.';

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

/** The `months` calendar months (UTC) starting with the one `now` is in. */
export function nextMonths(now: Date, months: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < months; i++) {
    out.push(monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1))));
  }
  return out;
}

/** Expected revenue a month for the next `months` months, from the subscriptions and the churn. */
export function forecastRevenue(subs: readonly ForecastSub[], churn: number, now: Date, months: number): ForecastMonth[] {
  const keep = 1 - Math.min(1, Math.max(0, churn));
  const slots = nextMonths(now, months);
  const byMonth = new Map(slots.map((m) => [m, { expected: 0, renewals: 0, ceiling: 0 }]));
  const last = slots[slots.length - 1] as string;
  for (const s of subs) {
    if (s.status === 'canceled' || s.cancelAtPeriodEnd || s.comp || !s.nextBillingDate) continue;
    let at = s.nextBillingDate.getTime();
    // A past_due renewal is being retried now: it counts from today.
    if (at < now.getTime()) at = now.getTime();
    for (let k = 1; ; k++) {
      const m = monthOf(new Date(at));
      if (m > last) break;
      const slot = byMonth.get(m);
      if (slot) {
        slot.expected += s.amount * keep ** k;
        slot.renewals += 1;
        slot.ceiling += s.amount;
      }
      at += SUBSCRIPTION_PERIOD_MS;
    }
  }
  return slots.map((m) => {
    const v = byMonth.get(m) as { expected: number; renewals: number; ceiling: number };
    return { month: m, expected: Math.round(v.expected), renewals: v.renewals, ceiling: v.ceiling };
  });
}

/** A month's churn: the share of the subscriptions live at its start that ended during it. */
export function churnRate(liveAtStart: number, endedInMonth: number): number {
  return liveAtStart <= 0 ? 0 : Math.min(1, endedInMonth / liveAtStart);
}

/** The observed monthly churn: the mean of the months that had subscribers (0 with none). */
export function observedChurn(months: readonly { liveAtStart: number; ended: number }[]): number {
  const rates = months.filter((m) => m.liveAtStart > 0).map((m) => churnRate(m.liveAtStart, m.ended));
  return rates.length === 0 ? 0 : rates.reduce((a, b) => a + b, 0) / rates.length;
}

/** Monthly recurring revenue: what the paying, live subscriptions bring a month (30-day periods). */
export function monthlyRecurring(subs: readonly Pick<ForecastSub, 'amount' | 'status' | 'comp'>[]): number {
  return subs.filter((s) => s.status !== 'canceled' && !s.comp).reduce((n, s) => n + s.amount, 0);
}

/** Every UTC day of the last `days` days up to `now`'s, with the sums the database found (0 elsewhere). */
export function fillDays(
  rows: readonly { day: string; cents: number }[],
  now: Date,
  days: number,
): { day: string; cents: number }[] {
  const found = new Map(rows.map((r) => [r.day, r.cents]));
  const out: { day: string; cents: number }[] = [];
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(today - i * 86_400_000).toISOString().slice(0, 10);
    out.push({ day, cents: found.get(day) ?? 0 });
  }
  return out;
}

/** The starts of the `months` whole calendar months (UTC) before the one `now` is in, oldest first. */
export function pastMonthStarts(now: Date, months: number): Date[] {
  const out: Date[] = [];
  for (let i = months; i >= 1; i--) out.push(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)));
  return out;
}
