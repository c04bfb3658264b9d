import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DAY, type PaymentAnswer, type PaymentMethod, type Subscription } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { PASSWORD, setTier, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
let keys = 0;
const key = () => `paths-${Date.now()}-${++keys}`;
const PLAN = {
  'premium-monthly': { subscription_plan: 'premium-monthly', amount_money: { amount: 999, currency: 'USD' } },
  'platinum-monthly': { subscription_plan: 'platinum-monthly', amount_money: { amount: 1999, currency: 'USD' } },
};

describe.each(DB_KINDS)('billing paths on %s', (kind) => {
  const t = useTestApp(kind, { env: { TEST_CLOCK: 'true' } });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  async function member() {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    return { id: u.user.uid, email: u.user.email as string, h: u.headers };
  }
  const payments = (userId: string) =>
    t()
      .db.selectFrom('payments')
      .select(['kind', 'status', 'amount'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  const subscribe = (h: Headers, plan: keyof typeof PLAN = 'premium-monthly', source = 'cnon:card-nonce-ok') =>
    call('POST', '/payments/subscription', h, { ...PLAN[plan], source_id: source, idempotency_key: key() });
  const mails = () => {
    const dir = t().config.mail.outboxDir;
    return existsSync(dir) ? readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8')) : [];
  };
  async function fresh(email: string): Promise<Headers> {
    const r = await t().app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: PASSWORD } });
    return { authorization: `Bearer ${r.json().token}` };
  }

  it('keeps one live subscription per member, also when checkouts with different keys race', async () => {
    const m = await member();
    const answers = await Promise.all(Array.from({ length: 6 }, () => subscribe(m.h)));
    expect(
      answers.filter((a) => a.statusCode === 200),
      answers.map((a) => a.body).join('\n'),
    ).toHaveLength(1);
    expect(
      new Set(answers.filter((a) => a.statusCode !== 200).map((a) => a.statusCode)),
      answers.map((a) => a.body).join('\n'),
    ).toEqual(new Set([409]));
    const live = await t()
      .db.selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', m.id)
      .where('status', '!=', 'canceled')
      .execute();
    expect(live).toHaveLength(1);
    // Charged once: the losers waited for the winner and stopped before the card.
    expect((await payments(m.id)).filter((p) => p.status === 'completed')).toHaveLength(1);
    // The database itself refuses a second live row, whatever code writes it.
    const row = await t().db.selectFrom('subscriptions').selectAll().where('id', '=', live[0]!.id).executeTakeFirstOrThrow();
    await expect(
      t()
        .db.insertInto('subscriptions')
        .values({ ...row, id: 'second-live' })
        .execute(),
    ).rejects.toThrow();
    // A canceled one beside it is fine (history).
    await t()
      .db.insertInto('subscriptions')
      .values({ ...row, id: 'old-canceled', status: 'canceled' })
      .execute();
  });

  it('adds, lists, makes default and removes cards, and refuses another member’s card', async () => {
    const m = await member();
    const first = await call('POST', '/billing/cards', m.h, { source_id: 'cnon:card-nonce-ok' });
    expect(first.statusCode).toBe(200);
    const second = await call('POST', '/billing/cards', m.h, { source_id: 'cnon:card-nonce-ok-then-declined' });
    const cards = second.json().cards as PaymentMethod[];
    expect(cards.map((c) => c.last4).sort()).toEqual(['1111', '4444']);
    expect(cards.filter((c) => c.isDefault)).toHaveLength(1);
    const declined = await call('POST', '/billing/cards', m.h, { source_id: 'cnon:card-nonce-declined' });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error).toBe('Payment failed');
    const master = cards.find((c) => c.last4 === '4444')!;
    const made = await call('POST', `/billing/cards/${master.id}/default`, m.h);
    expect(made.statusCode).toBe(200);
    expect((made.json().cards as PaymentMethod[]).find((c) => c.isDefault)?.last4).toBe('4444');
    expect(((await call('GET', '/billing', m.h)).json().cards as PaymentMethod[]).find((c) => c.isDefault)?.id).toBe(master.id);

    const other = await member();
    for (const res of [
      await call('POST', `/billing/cards/${master.id}/default`, other.h),
      await call('DELETE', `/billing/cards/${master.id}`, other.h),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Card not found');
    }
    expect((await call('GET', '/billing', m.h)).json().cards).toHaveLength(2);

    const removed = await call('DELETE', `/billing/cards/${master.id}`, m.h);
    expect(removed.statusCode).toBe(200);
    expect((removed.json().cards as PaymentMethod[]).map((c) => c.last4)).toEqual(['1111']);
    expect((await call('DELETE', `/billing/cards/${master.id}`, m.h)).statusCode).toBe(404);
  });

  it('takes a one-time payment for any extra (not only Boost), once per key, with a receipt', async () => {
    const m = await member();
    const body = {
      source_id: 'cnon:card-nonce-ok',
      amount_money: { amount: 500, currency: 'USD' },
      idempotency_key: key(),
      note: 'Gift to FMK',
    };
    const [a, b] = await Promise.all([
      call('POST', '/payments/one-time', m.h, body),
      call('POST', '/payments/one-time', m.h, body),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect((a.json() as PaymentAnswer).payment_id).toBeTruthy();
    expect(await payments(m.id)).toEqual([{ kind: 'one_time', status: 'completed', amount: 500 }]);
    // No tier and no boost credit come with a plain payment.
    expect((await call('GET', '/billing', m.h)).json().tier).toBe('free');
    expect(await t().db.selectFrom('boost_credits').select('user_id').where('user_id', '=', m.id).execute()).toEqual([]);
    await expect
      .poll(() => mails().some((x) => x.includes(m.email) && x.includes('$5.00') && x.includes('Gift to FMK')))
      .toBe(true);
    const bad = await call('POST', '/payments/one-time', m.h, {
      ...body,
      idempotency_key: key(),
      amount_money: { amount: 0, currency: 'USD' },
    });
    expect(bad.statusCode).toBe(400);
    const declined = await call('POST', '/payments/one-time', m.h, {
      ...body,
      idempotency_key: key(),
      source_id: 'cnon:card-nonce-declined',
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error).toBe('Payment failed');
  });

  it("lists a customer's subscriptions to that customer only", async () => {
    const m = await member();
    const first = (await subscribe(m.h)).json() as PaymentAnswer;
    await call('POST', `/subscriptions/${first.subscription_id}/cancel`, m.h, { atPeriodEnd: false });
    const second = (await subscribe(m.h, 'platinum-monthly')).json() as PaymentAnswer;
    const res = await call('GET', `/customers/${first.customer_id}/subscriptions`, m.h);
    expect(res.statusCode).toBe(200);
    const subs = res.json().subscriptions as Subscription[];
    expect(subs.map((s) => [s.id, s.planId, s.status]).sort()).toEqual(
      [
        [first.subscription_id, 'premium-monthly', 'canceled'],
        [second.subscription_id, 'platinum-monthly', 'active'],
      ].sort(),
    );
    const other = await member();
    const refused = await call('GET', `/customers/${first.customer_id}/subscriptions`, other.h);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('Subscription not found');
  });

  it('downgrades platinum to premium mid-period: nothing charged or credited now, the lower price from the renewal', async () => {
    const m = await member();
    const sub = ((await subscribe(m.h, 'platinum-monthly')).json() as PaymentAnswer).subscription!;
    await call('POST', '/test/clock', {}, { advanceMs: 12 * DAY });
    const h = await fresh(m.email);
    const down = await call('PUT', `/subscriptions/${sub.id}`, h, { plan_variation_id: 'premium-monthly' });
    expect(down.statusCode).toBe(200);
    expect(down.json().subscription).toMatchObject({ planId: 'premium-monthly', amount: 999, status: 'active' });
    // The period does not move, and the tier drops at once.
    expect(down.json().subscription.currentPeriodEnd).toBe(sub.currentPeriodEnd);
    expect((await call('GET', '/billing', h)).json().tier).toBe('premium');
    expect(await payments(m.id)).toEqual([{ kind: 'subscription', status: 'completed', amount: 1999 }]);
    await call('POST', '/test/clock', {}, { advanceMs: 18 * DAY + 1000 });
    expect(await payments(m.id)).toEqual([
      { kind: 'subscription', status: 'completed', amount: 1999 },
      { kind: 'renewal', status: 'completed', amount: 999 },
    ]);
  });

  it('e-mails a receipt for a renewal', async () => {
    const m = await member();
    await subscribe(m.h);
    await call('POST', '/test/clock', {}, { advanceMs: 30 * DAY + 1000 });
    expect((await payments(m.id)).map((p) => p.kind)).toEqual(['subscription', 'renewal']);
    await expect
      .poll(() =>
        mails().some((x) => x.includes(m.email) && x.includes('Premium membership, one more month') && x.includes('$9.99')),
      )
      .toBe(true);
  });
});
