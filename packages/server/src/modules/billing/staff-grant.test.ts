import { DAY, type PaymentAnswer } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { setTier, signUp, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { loadActor } from '../../platform/access.ts';

type Headers = Record<string, string>;
let keys = 0;
const key = () => `grant-${Date.now()}-${++keys}`;

describe.each(DB_KINDS)('a tier given by staff on %s', (kind) => {
  const t = useTestApp(kind, { env: { TEST_CLOCK: 'true' } });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const tierOf = async (id: string) => (await loadActor(t().db, id))?.tier;
  const subsOf = (id: string) =>
    t().db.selectFrom('subscriptions').selectAll().where('user_id', '=', id).orderBy('created_at').execute();
  const paymentsOf = async (id: string) =>
    (await t().db.selectFrom('payments').select('id').where('user_id', '=', id).execute()).length;
  const audits = (id: string) =>
    t().db.selectFrom('audit_log').select(['action', 'reason']).where('target_id', '=', id).orderBy('id').execute();
  async function member() {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    return { id: u.user.uid, h: u.headers };
  }
  const staff = () => signUpStaff(t().app, t().db, 'admin', t().clock.now()).then((s) => s.staffHeaders);
  const grant = (h: Headers, id: string, body: object) => call('POST', `/admin/users/${id}/tier`, h, body);
  async function subscribe(h: Headers, plan: 'premium-monthly' | 'platinum-monthly') {
    const res = await call('POST', '/payments/subscription', h, {
      subscription_plan: plan,
      amount_money: { amount: plan === 'premium-monthly' ? 999 : 1999, currency: 'USD' },
      source_id: 'cnon:card-nonce-ok',
      idempotency_key: key(),
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as PaymentAnswer).subscription!;
  }

  it('raises a free member through a complimentary subscription, survives his own billing, and ends when lowered', async () => {
    const admin = await staff();
    const m = await member();
    const live = await openLive(t().app, m.h.authorization.slice(7));
    expect((await grant(admin, m.id, { tier: 'premium', reason: 'Goodwill after outage' })).statusCode).toBe(204);
    expect(await tierOf(m.id)).toBe('premium');
    expect((await call('GET', '/me', m.h)).json()).toMatchObject({ subscriptionTier: 'premium' });
    await expect.poll(() => live.events.some((e) => e.type === 'tier' && e.tier === 'premium')).toBe(true);
    const [comp] = await subsOf(m.id);
    expect(comp).toMatchObject({ comp: true, amount: 0, plan_id: 'premium-monthly', status: 'active', next_billing_date: null });
    expect(comp!.payment_method_id).toBeNull();
    // A year by default.
    expect(new Date(comp!.current_period_end).getTime() - t().clock.now().getTime()).toBe(365 * DAY);
    expect(await paymentsOf(m.id)).toBe(0);
    expect(await audits(m.id)).toEqual([{ action: 'change_tier:free->premium', reason: 'Goodwill after outage' }]);

    // He may still buy a plan of his own; ending it leaves the grant in place.
    const paid = await subscribe(m.h, 'platinum-monthly');
    expect(await tierOf(m.id)).toBe('platinum');
    expect((await call('POST', `/subscriptions/${paid.id}/cancel`, m.h, { atPeriodEnd: false })).statusCode).toBe(200);
    expect(await tierOf(m.id)).toBe('premium');
    // A gift's plan is not his to change (an upgrade would be sold from nothing).
    const put = await call('PUT', `/subscriptions/${comp!.id}`, m.h, { plan_variation_id: 'platinum-monthly' });
    expect(put.statusCode).toBe(409);
    expect(put.json().message).toMatch(/given by staff/);
    expect((await call('GET', '/billing', m.h)).json().subscription).toMatchObject({ id: comp!.id, comp: true });

    expect((await grant(admin, m.id, { tier: 'free', reason: 'Goodwill period over' })).statusCode).toBe(204);
    expect(await tierOf(m.id)).toBe('free');
    await expect.poll(() => live.events.some((e) => e.type === 'tier' && e.tier === 'free')).toBe(true);
    expect((await subsOf(m.id)).find((s) => s.id === comp!.id)).toMatchObject({ status: 'canceled' });
    expect((await audits(m.id)).map((a) => a.action)).toEqual(['change_tier:free->premium', 'change_tier:premium->free']);
    await live.close();
  });

  it('refuses to lower a member below what he pays for, with the reason, and changes nothing', async () => {
    const admin = await staff();
    const m = await member();
    await subscribe(m.h, 'premium-monthly');
    const res = await grant(admin, m.id, { tier: 'free', reason: 'Complaint' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'He pays for Premium: staff cannot lower a paid tier. He keeps Premium until he cancels his subscription or it lapses.',
    );
    expect(await tierOf(m.id)).toBe('premium');
    expect(await audits(m.id)).toEqual([]);
    // Raising him above it is a grant on top; lowering back ends only the grant.
    expect((await grant(admin, m.id, { tier: 'platinum', reason: 'Beta tester' })).statusCode).toBe(204);
    expect(await tierOf(m.id)).toBe('platinum');
    expect((await grant(admin, m.id, { tier: 'premium', reason: 'Beta over' })).statusCode).toBe(204);
    expect(await tierOf(m.id)).toBe('premium');
    expect((await subsOf(m.id)).map((s) => [s.comp, s.status])).toEqual([
      [false, 'active'],
      [true, 'canceled'],
      [true, 'active'],
    ]);
  });

  it('leaves one live grant when two staff change his tier at once', async () => {
    const admin = await staff();
    const m = await member();
    const res = await Promise.all(
      (['premium', 'platinum', 'premium', 'platinum'] as const).map((tier) => grant(admin, m.id, { tier, reason: 'Race' })),
    );
    expect(res.map((r) => r.statusCode)).toEqual([204, 204, 204, 204]);
    const live = (await subsOf(m.id)).filter((s) => s.status !== 'canceled');
    expect(live).toHaveLength(1);
    expect(await tierOf(m.id)).toBe(live[0]!.plan_id === 'platinum-monthly' ? 'platinum' : 'premium');
  });

  it('is never charged by the renewal job and lapses at the end staff gave', async () => {
    const admin = await staff();
    const m = await member();
    const past = new Date(t().clock.now().getTime() - DAY).toISOString();
    const bad = await grant(admin, m.id, { tier: 'premium', reason: 'Goodwill', until: past });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/future/);
    expect((await grant(admin, m.id, { tier: 'premium', reason: 'Goodwill', until: 'soon' })).statusCode).toBe(400);
    const until = new Date(t().clock.now().getTime() + 2 * DAY).toISOString();
    expect((await grant(admin, m.id, { tier: 'platinum', reason: 'Two days', until })).statusCode).toBe(204);
    expect(await tierOf(m.id)).toBe('platinum');
    expect((await audits(m.id)).at(-1)?.reason).toBe(`Two days (until ${until})`);
    const live = await openLive(t().app, m.h.authorization.slice(7));
    await call('POST', '/test/clock', {}, { advanceMs: DAY });
    expect(await tierOf(m.id)).toBe('platinum');
    await call('POST', '/test/clock', {}, { advanceMs: 2 * DAY });
    expect(await tierOf(m.id)).toBe('free');
    expect(await subsOf(m.id)).toEqual([expect.objectContaining({ comp: true, status: 'canceled' })]);
    expect(await paymentsOf(m.id)).toBe(0);
    await expect.poll(() => live.events.some((e) => e.type === 'tier' && e.tier === 'free')).toBe(true);
    await live.close();
  });
});
