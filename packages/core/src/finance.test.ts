import { describe, expect, it } from 'vitest';
import { DAY } from './clock.ts';
import { churnRate, type ForecastSub, forecastRevenue, monthlyRecurring, nextMonths, observedChurn } from './finance.ts';

const NOW = new Date('2026-11-27T12:00:00Z');
const sub = (over: Partial<ForecastSub> = {}): ForecastSub => ({
  amount: 1000,
  status: 'active',
  cancelAtPeriodEnd: false,
  comp: false,
  nextBillingDate: new Date(NOW.getTime() + 10 * DAY),
  ...over,
});

describe('the revenue forecast', () => {
  it('counts each renewal every 30 days in its calendar month, at the full price with no churn', () => {
    const f = forecastRevenue([sub()], 0, NOW, 4);
    // Renewals: Dec 7, Jan 6, Feb 5, Mar 7 (30-day periods).
    expect(f.map((m) => m.month)).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(f.map((m) => m.renewals)).toEqual([0, 1, 1, 1]);
    expect(f.map((m) => m.expected)).toEqual([0, 1000, 1000, 1000]);
  });

  it('discounts the k-th renewal by (1 - churn)^k', () => {
    const f = forecastRevenue([sub()], 0.1, NOW, 4);
    expect(f.map((m) => m.expected)).toEqual([0, 900, 810, 729]);
    expect(f.map((m) => m.ceiling)).toEqual([0, 1000, 1000, 1000]);
  });

  it('leaves out what will not renew: canceled, ending at period end, staff grants, no billing date', () => {
    const none = [
      sub({ status: 'canceled' }),
      sub({ cancelAtPeriodEnd: true }),
      sub({ comp: true }),
      sub({ nextBillingDate: null }),
    ];
    expect(forecastRevenue(none, 0, NOW, 3).every((m) => m.expected === 0 && m.renewals === 0)).toBe(true);
  });

  it('counts a past_due renewal from today, and two subscriptions add up', () => {
    const late = sub({ status: 'past_due', nextBillingDate: new Date(NOW.getTime() - 2 * DAY), amount: 500 });
    const f = forecastRevenue([late, sub()], 0, NOW, 2);
    expect(f).toEqual([
      { month: '2026-11', expected: 500, renewals: 1, ceiling: 500 },
      { month: '2026-12', expected: 1500, renewals: 2, ceiling: 1500 },
    ]);
  });

  it('never grows with churn, and never exceeds the ceiling', () => {
    const subs = Array.from({ length: 20 }, (_, i) =>
      sub({ amount: 100 * (i + 1), nextBillingDate: new Date(NOW.getTime() + i * DAY) }),
    );
    let prev = forecastRevenue(subs, 0, NOW, 6);
    for (const churn of [0.05, 0.2, 0.5, 1]) {
      const f = forecastRevenue(subs, churn, NOW, 6);
      f.forEach((m, i) => {
        expect(m.expected).toBeLessThanOrEqual(prev[i]!.expected);
        expect(m.expected).toBeLessThanOrEqual(m.ceiling);
      });
      prev = f;
    }
    expect(forecastRevenue(subs, 1, NOW, 6).every((m) => m.expected === 0)).toBe(true);
  });
});

describe('churn and MRR', () => {
  it('a month’s churn is ended / live at its start; the observed churn is the mean of months with subscribers', () => {
    expect(churnRate(0, 3)).toBe(0);
    expect(churnRate(10, 2)).toBe(0.2);
    expect(churnRate(2, 5)).toBe(1);
    expect(observedChurn([])).toBe(0);
    expect(
      observedChurn([
        { liveAtStart: 10, ended: 1 },
        { liveAtStart: 0, ended: 0 },
        { liveAtStart: 20, ended: 6 },
      ]),
    ).toBeCloseTo(0.2);
  });

  it('MRR sums the live paying subscriptions', () => {
    expect(
      monthlyRecurring([sub(), sub({ status: 'past_due', amount: 500 }), sub({ comp: true }), sub({ status: 'canceled' })]),
    ).toBe(1500);
  });

  it('lists the months from the current one', () => {
    expect(nextMonths(new Date('2026-12-31T23:00:00Z'), 3)).toEqual(['2026-12', '2027-01', '2027-02']);
  });
});
