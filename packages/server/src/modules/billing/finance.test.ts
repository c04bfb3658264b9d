import type { Financial } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { setTier, signUp, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
let keys = 0;
const key = () => `finance-${Date.now()}-${++keys}`;

describe.each(DB_KINDS)('the admin money figures on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  async function member() {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    return u.headers;
  }
  async function subscribe(h: Headers, plan: 'premium-monthly' | 'platinum-monthly') {
    const res = await call('POST', '/payments/subscription', h, {
      subscription_plan: plan,
      amount_money: { amount: plan === 'premium-monthly' ? 999 : 1999, currency: 'USD' },
      source_id: 'cnon:card-nonce-ok',
      idempotency_key: key(),
    });
    expect(res.statusCode).toBe(200);
    return res.json().subscription_id as string;
  }

  it('computes MRR, revenue by day and plan, churn and the forecast from the seeded payments; 403 without financial.view', async () => {
    const a = await member();
    await subscribe(a, 'premium-monthly');
    const b = await member();
    const bSub = await subscribe(b, 'platinum-monthly');
    await call('POST', `/subscriptions/${bSub}/cancel`, b, { atPeriodEnd: true });
    const c = await member();
    const once = await call('POST', '/payments/one-time', c, {
      source_id: 'cnon:card-nonce-ok',
      amount_money: { amount: 500, currency: 'USD' },
      idempotency_key: key(),
      note: 'Extra',
    });
    expect(once.statusCode).toBe(200);
    const d = await member();
    const dSub = await subscribe(d, 'premium-monthly');
    await call('POST', `/subscriptions/${dSub}/cancel`, d, { atPeriodEnd: false });
    // A declined card is no revenue.
    await call('POST', '/payments/one-time', c, {
      source_id: 'cnon:card-nonce-declined',
      amount_money: { amount: 700, currency: 'USD' },
      idempotency_key: key(),
    });

    const admin = (await signUpStaff(t().app, t().db, 'admin', t().clock.now())).staffHeaders;
    const res = await call('GET', '/admin/financial?days=30&months=4', admin);
    expect(res.statusCode, res.body).toBe(200);
    const f = res.json() as Financial;
    // Live paying: A (999) and B (1999, ending at its period's end but paid for this month).
    expect(f.mrr).toBe(2998);
    expect(f.payingSubscriptions).toBe(2);
    expect(f.revenueDays).toBe(30);
    expect(f.revenueByDay).toHaveLength(30);
    expect(f.revenueTotal).toBe(999 + 1999 + 500 + 999);
    expect(f.revenueByDay.at(-1)).toEqual({ day: t().clock.now().toISOString().slice(0, 10), cents: 4497 });
    expect(f.revenueByPlan).toEqual([
      { plan: 'Platinum', cents: 1999, payments: 1 },
      { plan: 'Premium', cents: 1998, payments: 2 },
      { plan: 'One-time payments', cents: 500, payments: 1 },
    ]);
    // No subscription is older than this month: no churn observed yet.
    expect(f.churn).toHaveLength(6);
    expect(f.churn.every((m) => m.liveAtStart === 0 && m.rate === 0)).toBe(true);
    expect(f.observedChurn).toBe(0);
    // Only A renews (B ends at its period's end): 999 each 30 days over 4 months.
    expect(f.forecast).toHaveLength(4);
    expect(f.forecast.reduce((n, m) => n + m.renewals, 0)).toBe(4);
    expect(f.forecast.filter((m) => m.renewals > 0).every((m) => m.expected === 999 * m.renewals)).toBe(true);
    expect(f.method).toMatch(/churn/);

    // Two older subscriptions, one of which ended last month: that month's churn is 1 of 2.
    const now = t().clock.now();
    const monthStart = (back: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const old = await t().db.selectFrom('subscriptions').selectAll().where('id', '=', dSub).executeTakeFirstOrThrow();
    const earlier = new Date(monthStart(3).getTime() + 86_400_000);
    for (const [id, canceledAt] of [
      ['old-kept', null],
      ['old-ended', new Date(monthStart(1).getTime() + 3 * 86_400_000)],
    ] as const) {
      await t()
        .db.insertInto('subscriptions')
        .values({ ...old, id, status: 'canceled', created_at: earlier, canceled_at: canceledAt ?? now })
        .execute();
    }
    const later = (await call('GET', '/admin/financial?months=3', admin)).json() as Financial;
    const last = later.churn.at(-1)!;
    expect(last).toEqual({ month: monthStart(1).toISOString().slice(0, 7), liveAtStart: 2, ended: 1, rate: 0.5 });
    expect(later.churn.at(-2)).toMatchObject({ liveAtStart: 2, ended: 0, rate: 0 });
    // The mean over the months that had subscribers (two of them: 0 and 0.5).
    expect(later.observedChurn).toBeCloseTo(0.25);
    expect(later.forecast[1]!.expected).toBeLessThan(later.forecast[1]!.ceiling);

    expect((await call('GET', '/admin/financial?days=90', admin)).json().revenueByDay).toHaveLength(90);
    expect((await call('GET', '/admin/financial?days=7', admin)).statusCode).toBe(400);
    const mod = (await signUpStaff(t().app, t().db, 'moderator', t().clock.now())).staffHeaders;
    expect((await call('GET', '/admin/financial', mod)).statusCode).toBe(403);
    expect((await call('GET', '/admin/financial', a)).statusCode).toBe(403);
  });

  it('counts revenue net of refunds: by day, by plan and in all, and a subscription ended by its refund leaves MRR', async () => {
    const owner = (await signUpStaff(t().app, t().db, 'owner', t().clock.now())).staffHeaders;
    const figures = async () => (await call('GET', '/admin/financial?days=30&months=3', owner)).json() as Financial;
    const a = await member();
    const sub = await call('POST', '/payments/subscription', a, {
      subscription_plan: 'premium-monthly',
      amount_money: { amount: 999, currency: 'USD' },
      source_id: 'cnon:card-nonce-ok',
      idempotency_key: key(),
    });
    const extra = await call('POST', '/payments/one-time', a, {
      source_id: 'cnon:card-nonce-ok',
      amount_money: { amount: 500, currency: 'USD' },
      idempotency_key: key(),
    });
    const before = await figures();
    const refund = (id: string, body: object) =>
      call('POST', `/admin/payments/${id}/refund`, owner, { reason: 'Goodwill', idempotencyKey: key(), ...body });
    expect((await refund(extra.json().payment_id, { amountCents: 300 })).statusCode).toBe(200);
    expect((await refund(sub.json().payment_id, {})).statusCode).toBe(200);
    const after = await figures();
    const plan = (f: Financial, name: string) => f.revenueByPlan.find((p) => p.plan === name);

    expect(after.refundsTotal - before.refundsTotal).toBe(1299);
    expect(before.revenueTotal - after.revenueTotal).toBe(1299);
    expect(before.revenueByDay.at(-1)!.cents - after.revenueByDay.at(-1)!.cents).toBe(1299);
    // The payments still count as made; their plan's revenue is what was kept.
    expect(plan(before, 'Premium')!.cents - plan(after, 'Premium')!.cents).toBe(999);
    expect(plan(after, 'Premium')!.payments).toBe(plan(before, 'Premium')!.payments);
    expect(plan(before, 'One-time payments')!.cents - plan(after, 'One-time payments')!.cents).toBe(300);
    // The full refund of its only payment ended the subscription: it no longer recurs.
    expect(before.mrr - after.mrr).toBe(999);
    expect(before.payingSubscriptions - after.payingSubscriptions).toBe(1);
  });
});
