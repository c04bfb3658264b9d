import type { AdminSubscriptionsPage } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { setTier, signUp, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
let keys = 0;
const key = () => `staffsubs-${Date.now()}-${++keys}`;

describe.each(DB_KINDS)('the staff subscriptions list on %s', (kind) => {
  const t = useTestApp(kind);
  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  async function subscriber(name: string, plan: 'premium-monthly' | 'platinum-monthly') {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    await t().db.updateTable('users').set({ display_name: name }).where('id', '=', u.user.uid).execute();
    const res = await call('POST', '/payments/subscription', u.headers, {
      subscription_plan: plan,
      amount_money: { amount: plan === 'premium-monthly' ? 999 : 1999, currency: 'USD' },
      source_id: 'cnon:card-nonce-ok',
      idempotency_key: key(),
    });
    expect(res.statusCode).toBe(200);
    const anon = await t().db.selectFrom('users').select('anonymous_id').where('id', '=', u.user.uid).executeTakeFirstOrThrow();
    return { id: u.user.uid, h: u.headers, subId: res.json().subscription_id as string, anonymousId: anon.anonymous_id };
  }
  const list = async (h: Headers, query: string) => {
    const res = await call('GET', `/admin/subscriptions${query}`, h);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AdminSubscriptionsPage;
  };

  it('searches by name or anonymous id, filters by status and plan, counts by status, refuses a member', async () => {
    const tag = `Zed${Date.now().toString(36)}`;
    const a = await subscriber(`${tag} Alpha`, 'premium-monthly');
    const b = await subscriber(`${tag} Beta`, 'platinum-monthly');
    const c = await subscriber(`${tag} Gamma`, 'premium-monthly');
    await call('POST', `/subscriptions/${c.subId}/cancel`, c.h, { atPeriodEnd: false });
    const mod = (await signUpStaff(t().app, t().db, 'moderator', t().clock.now())).staffHeaders;

    const all = await list(mod, `?q=${tag}`);
    expect(all.total).toBe(3);
    expect(all.rows.map((r) => r.displayName).sort()).toEqual([`${tag} Alpha`, `${tag} Beta`, `${tag} Gamma`]);
    expect(all.counts.active).toBeGreaterThanOrEqual(2);
    expect(all.counts.canceled).toBeGreaterThanOrEqual(1);
    const row = all.rows.find((r) => r.id === b.subId);
    expect(row).toMatchObject({ userId: b.id, planId: 'platinum-monthly', status: 'active', amount: 1999, comp: false });

    expect((await list(mod, `?q=${tag}&status=canceled`)).rows.map((r) => r.id)).toEqual([c.subId]);
    expect((await list(mod, `?q=${tag}&plan=premium-monthly&status=active`)).rows.map((r) => r.id)).toEqual([a.subId]);
    if (a.anonymousId) expect((await list(mod, `?q=${a.anonymousId}`)).rows.map((r) => r.id)).toEqual([a.subId]);
    // Paged by the server: 50 a page, the second page of three is empty.
    const second = await list(mod, `?q=${tag}&page=2`);
    expect(second).toMatchObject({ rows: [], total: 3, page: 2, pageSize: 50 });
    expect((await call('GET', '/admin/subscriptions?status=gone', mod)).statusCode).toBe(400);

    expect((await call('GET', '/admin/subscriptions', a.h)).statusCode).toBe(403);
  });
});
