import { DAY, type PaymentAnswer, type PlanRecord } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { PASSWORD, setTier, signUp, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
let keys = 0;
const key = () => `plans-${Date.now()}-${++keys}`;

describe.each(DB_KINDS)('plans in the database on %s', (kind) => {
  const t = useTestApp(kind, { env: { TEST_CLOCK: 'true' } });
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  async function member() {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    return { id: u.user.uid, email: u.user.email as string, h: u.headers };
  }
  const staff = (role: 'owner' | 'super_admin' | 'admin' | 'moderator') =>
    signUpStaff(t().app, t().db, role, t().clock.now()).then((s) => s.staffHeaders);
  const checkout = (h: Headers, amount: number) =>
    call('POST', '/payments/subscription', h, {
      subscription_plan: 'premium-monthly',
      amount_money: { amount, currency: 'USD' },
      source_id: 'cnon:card-nonce-ok',
      idempotency_key: key(),
    });
  const paymentsOf = (id: string) =>
    t().db.selectFrom('payments').select(['kind', 'amount']).where('user_id', '=', id).orderBy('created_at').execute();
  async function fresh(email: string): Promise<Headers> {
    const r = await t().app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: PASSWORD } });
    return { authorization: `Bearer ${r.json().token}` };
  }

  it("lists the spec's plans to members and staff, and refuses the staff list to a member", async () => {
    const m = await member();
    const sold = (await call('GET', '/plans', m.h)).json().plans as PlanRecord[];
    expect(sold.map((p) => [p.id, p.priceCents, p.interval, p.active])).toEqual([
      ['premium-monthly', 999, 'monthly', true],
      ['platinum-monthly', 1999, 'monthly', true],
    ]);
    expect(sold[0]?.features).toContain('See who likes you');
    expect((await call('GET', '/admin/plans', m.h)).statusCode).toBe(403);
    const mod = await staff('moderator');
    expect((await call('GET', '/admin/plans', mod)).json().plans).toHaveLength(2);
  });

  it('a price change reaches new checkouts only: an old subscription renews at its old price', async () => {
    const owner = await staff('owner');
    const early = await member();
    expect((await checkout(early.h, 999)).statusCode).toBe(200);
    try {
      const res = await call('PATCH', '/admin/plans/premium-monthly', owner, {
        priceCents: 1299,
        features: ['Unlimited swipes', 'See who likes you'],
        reason: 'New price from December',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        id: 'premium-monthly',
        priceCents: 1299,
        features: ['Unlimited swipes', 'See who likes you'],
      });
      const audit = await t()
        .db.selectFrom('audit_log')
        .select(['action', 'target_id', 'reason'])
        .where('action', '=', 'plan_edit')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit.target_id).toBe('premium-monthly');
      expect(audit.reason).toContain('New price from December');
      expect(audit.reason).toContain('price: 999 -> 1299');

      // A new checkout pays the new price; the old one is refused as not the price.
      const late = await member();
      const stale = await checkout(late.h, 999);
      expect(stale.statusCode).toBe(400);
      const paid = await checkout(late.h, 1299);
      expect(paid.statusCode, paid.body).toBe(200);
      expect((paid.json() as PaymentAnswer).subscription).toMatchObject({ amount: 1299, planId: 'premium-monthly' });

      await call('POST', '/test/clock', {}, { advanceMs: 30 * DAY + 1000 });
      expect(await paymentsOf(early.id)).toEqual([
        { kind: 'subscription', amount: 999 },
        { kind: 'renewal', amount: 999 },
      ]);
      expect(await paymentsOf(late.id)).toEqual([
        { kind: 'subscription', amount: 1299 },
        { kind: 'renewal', amount: 1299 },
      ]);
      expect((await call('GET', '/billing', await fresh(early.email))).json().subscription).toMatchObject({ amount: 999 });
    } finally {
      await call('PATCH', '/admin/plans/premium-monthly', await staff('owner'), {
        priceCents: 999,
        features: [
          'Unlimited swipes',
          'See who likes you',
          'Advanced filters',
          'Read receipts',
          'Incognito browsing',
          'Up to 8 photos',
        ],
      });
    }
  });

  it('the open plan list shows a staff edit at once; a subscriber keeps his price until he changes plan', async () => {
    const owner = await staff('owner');
    const early = await member();
    const first = await checkout(early.h, 999);
    expect(first.statusCode, first.body).toBe(200);
    const subId = (first.json() as PaymentAnswer).subscription_id as string;
    const premiumFeatures = ((await t().app.inject({ method: 'GET', url: '/api/v1/plans' })).json().plans as PlanRecord[])[0]!
      .features;
    try {
      for (const [id, priceCents] of [
        ['premium-monthly', 1299],
        ['platinum-monthly', 2499],
      ] as const)
        expect((await call('PATCH', `/admin/plans/${id}`, owner, { priceCents, reason: 'New prices' })).statusCode).toBe(200);
      expect(
        (await call('PATCH', '/admin/plans/premium-monthly', owner, { features: ['Unlimited swipes', 'New: see who likes you'] }))
          .statusCode,
      ).toBe(200);
      // Anyone, signed in or not, reads today's plans: what /settings/premium shows.
      const open = (await t().app.inject({ method: 'GET', url: '/api/v1/plans' })).json().plans as PlanRecord[];
      expect(open.map((p) => [p.id, p.priceCents])).toEqual([
        ['premium-monthly', 1299],
        ['platinum-monthly', 2499],
      ]);
      expect(open[0]?.features).toEqual(['Unlimited swipes', 'New: see who likes you']);
      // His subscription is untouched by the edit.
      expect((await call('GET', `/subscriptions/${subId}`, early.h)).json()).toMatchObject({ amount: 999 });
      // Changing plan sells him the plan at today's price, both ways.
      const up = await call('PUT', `/subscriptions/${subId}`, early.h, { plan_variation_id: 'platinum-monthly' });
      expect(up.statusCode, up.body).toBe(200);
      expect((up.json() as PaymentAnswer).subscription).toMatchObject({ planId: 'platinum-monthly', amount: 2499 });
      const down = await call('PUT', `/subscriptions/${subId}`, early.h, { plan_variation_id: 'premium-monthly' });
      expect(down.statusCode, down.body).toBe(200);
      expect((down.json() as PaymentAnswer).subscription).toMatchObject({ planId: 'premium-monthly', amount: 1299 });
    } finally {
      await call('PATCH', '/admin/plans/premium-monthly', owner, { priceCents: 999, features: premiumFeatures });
      await call('PATCH', '/admin/plans/platinum-monthly', owner, { priceCents: 1999 });
    }
  });

  it('a plan off sale cannot be bought, and only subscriptions.configure may edit', async () => {
    const owner = await staff('owner');
    const admin = await staff('admin');
    const m = await member();
    expect((await call('PATCH', '/admin/plans/platinum-monthly', admin, { active: false })).statusCode).toBe(403);
    expect((await call('PATCH', '/admin/plans/platinum-monthly', m.h, { active: false })).statusCode).toBe(403);
    expect((await call('PATCH', '/admin/plans/gold', owner, { active: false })).statusCode).toBe(404);
    const bad = await call('PATCH', '/admin/plans/platinum-monthly', owner, { priceCents: 0 });
    expect(bad.statusCode).toBe(400);
    expect((await call('PATCH', '/admin/plans/platinum-monthly', owner, {})).statusCode).toBe(400);
    try {
      expect((await call('PATCH', '/admin/plans/platinum-monthly', owner, { active: false })).statusCode).toBe(200);
      expect(((await call('GET', '/plans', m.h)).json().plans as PlanRecord[]).map((p) => p.id)).toEqual(['premium-monthly']);
      const refused = await call('POST', '/payments/subscription', m.h, {
        subscription_plan: 'platinum-monthly',
        amount_money: { amount: 1999, currency: 'USD' },
        source_id: 'cnon:card-nonce-ok',
        idempotency_key: key(),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('Invalid subscription plan');
    } finally {
      await call('PATCH', '/admin/plans/platinum-monthly', owner, { active: true });
    }
  });
});
