import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DAY, type PaymentAnswer, type Subscription } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { makeStaff, PASSWORD, setTier, signUp, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { loadActor } from '../../platform/access.ts';
import { signWebhook } from '../../platform/payments/provider.ts';

type Headers = Record<string, string>;
const PREMIUM = { subscription_plan: 'premium-monthly', amount_money: { amount: 999, currency: 'USD' } };
let keys = 0;
const key = () => `key-${Date.now()}-${++keys}`;

describe.each(DB_KINDS)('billing on %s', (kind) => {
  // The sandbox's delayed webhooks are off in tests (harness): these send their own, signed or not.
  const t = useTestApp(kind, { env: { TEST_CLOCK: 'true' } });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const tierOf = async (h: Headers) => (await call('GET', '/billing', h)).json().tier as string;
  const count = async (table: 'payments' | 'subscriptions', userId: string) =>
    Number(
      (
        await t()
          .db.selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  async function member() {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    return { id: u.user.uid, email: u.user.email as string, h: u.headers };
  }
  async function subscribe(h: Headers, body: object = {}) {
    const res = await call('POST', '/payments/subscription', h, {
      ...PREMIUM,
      source_id: 'cnon:card-nonce-ok',
      idempotency_key: key(),
      ...body,
    });
    return { status: res.statusCode, body: res.json() as PaymentAnswer };
  }
  /** A fresh sign-in: moving the clock a month expires the access token and the session. */
  async function fresh(m: { email: string }): Promise<Headers> {
    const r = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: m.email, password: PASSWORD },
    });
    return { authorization: `Bearer ${r.json().token}` };
  }
  const advance = (ms: number) => t().app.inject({ method: 'POST', url: '/api/v1/test/clock', payload: { advanceMs: ms } });

  it('derives the tier only from a paid subscription: free, then Premium once the sandbox card is charged', async () => {
    const m = await member();
    // The client cannot name a tier: the field is not part of any writable body.
    await t().app.inject({ method: 'PATCH', url: '/api/v1/me', headers: m.h, payload: { subscriptionTier: 'platinum' } });
    expect(await tierOf(m.h)).toBe('free');
    const r = await subscribe(m.h);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true });
    expect(r.body.payment_id).toBeTruthy();
    expect(r.body.subscription_id).toBeTruthy();
    expect(r.body.customer_id).toMatch(/^sandbox-cust-/);
    expect(r.body.subscription).toMatchObject({
      planId: 'premium-monthly',
      status: 'active',
      amount: 999,
      cancelAtPeriodEnd: false,
    });
    expect(await tierOf(m.h)).toBe('premium');
    const summary = (await call('GET', '/billing', m.h)).json();
    expect(summary.cards).toEqual([expect.objectContaining({ brand: 'VISA', last4: '1111', isDefault: true, type: 'card' })]);
    expect(summary.stats).toMatchObject({
      totalSpent: 999,
      subscriptionsCount: 1,
      activeSubscriptions: 1,
      nextBillingAmount: 999,
    });
    // No card number is stored anywhere: only the provider's card id and display fields.
    const row = await t().db.selectFrom('payment_methods').selectAll().where('user_id', '=', m.id).executeTakeFirstOrThrow();
    expect(Object.keys(row).sort()).toEqual([
      'brand',
      'created_at',
      'expiry_month',
      'expiry_year',
      'id',
      'is_default',
      'last4',
      'provider_card_id',
      'user_id',
    ]);
    // The receipt goes out by email.
    const outbox = t().config.mail.outboxDir;
    await expect
      .poll(() =>
        (existsSync(outbox) ? readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), 'utf8')) : []).some(
          (mail) => mail.includes(m.email) && mail.includes('$9.99'),
        ),
      )
      .toBe(true);
  });

  it("refuses an unknown plan with the spec's words, and a declined card with 'Payment failed' and no tier", async () => {
    const m = await member();
    const bad = await call('POST', '/payments/subscription', m.h, {
      ...PREMIUM,
      subscription_plan: 'gold',
      source_id: 'cnon:card-nonce-ok',
      idempotency_key: key(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Invalid subscription plan');
    const declined = await subscribe(m.h, { source_id: 'cnon:card-nonce-declined' });
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ success: false, error: 'Payment failed' });
    expect(await tierOf(m.h)).toBe('free');
    expect(await count('subscriptions', m.id)).toBe(0);
    const noToken = await call('POST', '/payments/subscription', m.h, { ...PREMIUM, idempotency_key: key() });
    expect(noToken.statusCode).toBe(400);
    const ok = await subscribe(m.h);
    const unknown = await call('PUT', `/subscriptions/${ok.body.subscription_id}`, m.h, { plan_variation_id: 'gold' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Invalid plan ID');
    const missing = await call('GET', '/subscriptions/nope', m.h);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Subscription not found');
    // Another member's subscription is not found either.
    const other = await member();
    expect((await call('POST', `/subscriptions/${ok.body.subscription_id}/cancel`, other.h, {})).json().message).toBe(
      'Subscription not found',
    );
  });

  it('charges once for one idempotency key, also under 20 concurrent retries', async () => {
    const m = await member();
    const body = { ...PREMIUM, source_id: 'cnon:card-nonce-ok', idempotency_key: key() };
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/payments/subscription', m.h, body)));
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.json().payment_id)).size).toBe(1);
    expect(await count('payments', m.id)).toBe(1);
    expect(await count('subscriptions', m.id)).toBe(1);
    const again = await call('POST', '/payments/subscription', m.h, body);
    expect(again.json()).toEqual(answers[0]?.json());
  });

  it('cancels at period end keeping the tier until the clock passes it, reactivates, and cancels now', async () => {
    const m = await member();
    const live = await openLive(t().app, m.h.authorization.slice(7));
    const sub = (await subscribe(m.h)).body.subscription as Subscription;
    await expect.poll(() => live.events.some((e) => e.type === 'tier' && e.tier === 'premium')).toBe(true);
    const cancel = await call('POST', `/subscriptions/${sub.id}/cancel`, m.h, { atPeriodEnd: true });
    expect(cancel.json().subscription).toMatchObject({ cancelAtPeriodEnd: true, status: 'active', nextBillingDate: null });
    expect(await tierOf(m.h)).toBe('premium');
    const back = await call('POST', `/subscriptions/${sub.id}/reactivate`, m.h);
    expect(back.json().subscription).toMatchObject({ cancelAtPeriodEnd: false, canceledAt: null, status: 'active' });
    await call('POST', `/subscriptions/${sub.id}/cancel`, m.h, { atPeriodEnd: true });
    expect((await advance(31 * DAY)).json().renewed).toBeGreaterThanOrEqual(1);
    const h = await fresh(m);
    expect(await tierOf(h)).toBe('free');
    expect((await call('GET', `/subscriptions/${sub.id}`, h)).json()).toMatchObject({ status: 'canceled' });
    await expect.poll(() => live.events.some((e) => e.type === 'tier' && e.tier === 'free')).toBe(true);
    expect(await count('payments', m.id)).toBe(1);
    await live.close();

    const n = await member();
    const s2 = (await subscribe(n.h)).body.subscription as Subscription;
    const now = await call('POST', `/subscriptions/${s2.id}/cancel`, n.h, { atPeriodEnd: false });
    expect(now.json().subscription).toMatchObject({ status: 'canceled' });
    expect(now.json().subscription.canceledAt).toBeTruthy();
    expect(await tierOf(n.h)).toBe('free');
    const twice = await call('POST', `/subscriptions/${s2.id}/cancel`, n.h, { atPeriodEnd: false });
    expect(twice.json()).toMatchObject({ success: false, error: 'Cancellation failed' });
  });

  it('renews at the period end, and a failing card goes past_due, is retried, then drops the tier', async () => {
    const m = await member();
    const sub = (await subscribe(m.h)).body.subscription as Subscription;
    await advance(30 * DAY + 1000);
    const renewed = (await call('GET', `/subscriptions/${sub.id}`, await fresh(m))).json() as Subscription;
    expect(renewed.status).toBe('active');
    expect(new Date(renewed.currentPeriodEnd).getTime()).toBe(new Date(sub.currentPeriodEnd).getTime() + 30 * DAY);
    expect(await count('payments', m.id)).toBe(2);

    const f = await member();
    const fs = (await subscribe(f.h, { source_id: 'cnon:card-nonce-ok-then-declined' })).body.subscription as Subscription;
    await advance(30 * DAY + 1000);
    expect((await call('GET', `/subscriptions/${fs.id}`, await fresh(f))).json().status).toBe('past_due');
    expect(await tierOf(await fresh(f))).toBe('premium');
    for (const days of [1, 2, 2]) await advance(days * DAY);
    expect((await call('GET', `/subscriptions/${fs.id}`, await fresh(f))).json().status).toBe('canceled');
    expect(await tierOf(await fresh(f))).toBe('free');
    const failures = await t()
      .db.selectFrom('payments')
      .select('status')
      .where('user_id', '=', f.id)
      .where('kind', '=', 'renewal')
      .execute();
    expect(failures.map((p) => p.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
  });

  it('never drops a beta user with lifetime premium below premium', async () => {
    const m = await member();
    await t().db.updateTable('users').set({ has_lifetime_premium: true }).where('id', '=', m.id).execute();
    expect(await tierOf(m.h)).toBe('premium');
    const res = await call('POST', '/payments/subscription', m.h, {
      subscription_plan: 'platinum-monthly',
      amount_money: { amount: 1999, currency: 'USD' },
      source_id: 'cnon:card-nonce-ok-then-declined',
      idempotency_key: key(),
    });
    expect(res.statusCode).toBe(200);
    expect(await tierOf(m.h)).toBe('platinum');
    for (const days of [31, 1, 2, 2]) await advance(days * DAY);
    expect(await tierOf(await fresh(m))).toBe('premium');
  });

  it('upgrades with proration and refuses a price override from a member', async () => {
    const m = await member();
    const sub = (await subscribe(m.h)).body.subscription as Subscription;
    await advance(15 * DAY);
    const h = await fresh(m);
    const up = await call('PUT', `/subscriptions/${sub.id}`, h, { plan_variation_id: 'platinum-monthly' });
    expect(up.statusCode).toBe(200);
    expect(up.json().subscription).toMatchObject({ planId: 'platinum-monthly', amount: 1999 });
    const proration = await t()
      .db.selectFrom('payments')
      .select('amount')
      .where('user_id', '=', m.id)
      .where('kind', '=', 'proration')
      .executeTakeFirstOrThrow();
    expect(Number(proration.amount)).toBe(500);
    expect(await tierOf(h)).toBe('platinum');
    const override = await call('PUT', `/subscriptions/${sub.id}`, h, {
      plan_variation_id: 'premium-monthly',
      price_override_money: { amount: 1, currency: 'USD' },
    });
    expect(override.statusCode).toBe(403);
  });

  it('rejects a webhook with a bad signature, and a good one replayed 5 times changes state once', async () => {
    const m = await member();
    const r = await subscribe(m.h);
    const pay = await t()
      .db.selectFrom('payments')
      .select('provider_payment_id')
      .where('id', '=', r.body.payment_id as string)
      .executeTakeFirstOrThrow();
    const url = `${t().config.publicUrl}/api/v1/billing/webhooks`;
    const raw = JSON.stringify({
      event_id: `evt-${key()}`,
      type: 'payment.updated',
      data: {
        type: 'payment',
        id: pay.provider_payment_id,
        object: { payment: { id: pay.provider_payment_id, status: 'FAILED' } },
      },
    });
    const send = (sig: string) =>
      t().app.inject({
        method: 'POST',
        url: '/api/v1/billing/webhooks',
        headers: { 'content-type': 'application/json', 'x-square-hmacsha256-signature': sig },
        payload: raw,
      });
    const forged = await send(signWebhook('not-the-key', url, raw));
    expect(forged.statusCode).toBe(401);
    expect((await call('GET', `/subscriptions/${r.body.subscription_id}`, m.h)).json().status).toBe('active');
    const key0 = t().config.payments.kind === 'sandbox' ? t().config.payments.webhookKey : '';
    const results = [];
    for (let i = 0; i < 6; i++) results.push((await send(signWebhook(key0, url, raw))).json().processed);
    expect(results).toEqual([true, false, false, false, false, false]);
    const s = await t()
      .db.selectFrom('subscriptions')
      .select(['status', 'failed_attempts'])
      .where('id', '=', r.body.subscription_id as string)
      .executeTakeFirstOrThrow();
    expect(s).toEqual({ status: 'past_due', failed_attempts: 1 });
  });

  it("reads every tier rule from the flag store, and counts a free user's daily uses against a flag's limit", async () => {
    const m = await member();
    const { editFlag } = await import('../../platform/flags.ts');
    const now = t().clock.now();
    // The edits a staff member would make (each with its audit row).
    const tester = { adminId: m.id, ip: null };
    try {
      await editFlag(t().db, 'videoCall', { isEnabled: false }, now, tester);
      await editFlag(t().db, 'supersPerDay', { isEnabled: false }, now, tester);
      await setTier(t().db, m.id, 'premium');
      const a = await loadActor(t().db, m.id);
      expect(a?.rules?.has.videoCall).toBe(false);
      expect(a?.rules?.has.whoLikesYou).toBe(true);
      expect(a?.rules?.limits.supersPerDay).toBe(0);
      expect(a?.rules?.limits.messagesPerDay).toBe(50);
    } finally {
      await editFlag(t().db, 'videoCall', { isEnabled: true }, now, tester);
      await editFlag(t().db, 'supersPerDay', { isEnabled: true }, now, tester);
    }
    await setTier(t().db, m.id, 'free');
    expect((await call('POST', '/features/boost/use', m.h)).json().message).toBe(
      'Boost your profile to the top with Platinum membership...',
    );
    expect((await call('POST', '/features/nope/use', m.h)).statusCode).toBe(404);
    try {
      await editFlag(t().db, 'advancedPrivacy', { isPremium: false, limit: 2 }, now, tester);
      const uses = [];
      for (let i = 0; i < 3; i++) uses.push((await call('POST', '/features/advancedPrivacy/use', m.h)).statusCode);
      expect(uses).toEqual([200, 200, 403]);
      await editFlag(t().db, 'advancedPrivacy', { limit: 0 }, now, tester);
      expect((await call('POST', '/features/advancedPrivacy/use', m.h)).json()).toMatchObject({ allowed: true, remaining: null });
    } finally {
      await editFlag(t().db, 'advancedPrivacy', { isPremium: true, limit: null }, now, tester);
    }
  });

  it('lets an owner or super_admin edit a flag, refuses admins and members, and the change reaches every rule at once', async () => {
    // Staff act from the admin area's own session, with its second factor.
    const staff = async (role: 'owner' | 'admin') => {
      const u = await member();
      await makeStaff(t().db, u.id, role);
      return { ...u, h: await staffSignIn(t().app, u.email, t().clock.now()) };
    };
    const owner = await staff('owner');
    const admin = await staff('admin');
    const m = await member();
    expect((await call('PATCH', '/admin/features/videoCall', admin.h, { isEnabled: false })).statusCode).toBe(403);
    expect((await call('PATCH', '/admin/features/videoCall', m.h, { isEnabled: false })).statusCode).toBe(403);
    expect((await call('PATCH', '/admin/features/videoCall', owner.h, { limit: -7 })).statusCode).toBe(400);
    expect((await call('PATCH', '/admin/features/nope', owner.h, { isEnabled: false })).statusCode).toBe(404);
    try {
      const off = await call('PATCH', '/admin/features/whoLikesYou', owner.h, { isEnabled: false });
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ id: 'whoLikesYou', isEnabled: false, isPremium: true });
      await setTier(t().db, m.id, 'premium');
      expect((await loadActor(t().db, m.id))?.rules?.has.whoLikesYou).toBe(false);
      const flags = (await call('GET', '/features', m.h)).json().flags as { id: string; isEnabled: boolean }[];
      expect(flags.find((f) => f.id === 'whoLikesYou')?.isEnabled).toBe(false);
    } finally {
      await call('PATCH', '/admin/features/whoLikesYou', owner.h, { isEnabled: true });
    }
    expect((await loadActor(t().db, m.id))?.rules?.has.whoLikesYou).toBe(true);
  });

  it('lists the flags to staff with subscriptions.view (a moderator too), never to a member', async () => {
    const u = await member();
    await makeStaff(t().db, u.id, 'moderator');
    const h = await staffSignIn(t().app, u.email, t().clock.now());
    const m = await member();
    expect((await call('GET', '/admin/features', m.h)).statusCode).toBe(403);
    const res = await call('GET', '/admin/features', h);
    expect(res.statusCode, res.body).toBe(200);
    const flags = res.json().flags as { id: string; isEnabled: boolean; isPremium: boolean; limit: number | null }[];
    expect(flags.find((f) => f.id === 'whoLikesYou')).toMatchObject({ isEnabled: true, isPremium: true });
    expect(flags.map((f) => f.id)).toEqual((await call('GET', '/features', m.h)).json().flags.map((f: { id: string }) => f.id));
  });
});
