import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type AdminPaymentDetail,
  type AdminPaymentsPage,
  type BillingSummary,
  DAY,
  type PaymentAnswer,
  type RefundAnswer,
} from '@fmk/core';
import { describe, expect, it, vi } from 'vitest';
import { PASSWORD, setTier, signUp, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

// Booting PGlite can pass a minute on the shared 2-core machine.
vi.setConfig({ hookTimeout: 300_000, testTimeout: 600_000 });

type Headers = Record<string, string>;
let keys = 0;
const key = () => `refunds-${Date.now()}-${++keys}`;

describe.each(DB_KINDS)('admin payments and refunds on %s', (kind) => {
  const t = useTestApp(kind, { env: { TEST_CLOCK: 'true' } });
  const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  async function member() {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    const anon = (await t().db.selectFrom('users').select('anonymous_id').where('id', '=', u.user.uid).executeTakeFirstOrThrow())
      .anonymous_id as string;
    return { id: u.user.uid, email: u.user.email as string, h: u.headers, anon };
  }
  const staff = (role: 'owner' | 'admin' | 'moderator') =>
    signUpStaff(t().app, t().db, role, t().clock.now()).then((s) => ({ h: s.staffHeaders, id: s.user.uid }));
  const oneTime = async (h: Headers, amount: number, source = 'cnon:card-nonce-ok') =>
    (
      await call('POST', '/payments/one-time', h, {
        source_id: source,
        amount_money: { amount, currency: 'USD' },
        idempotency_key: key(),
        note: 'Extra photos pack',
      })
    ).json() as PaymentAnswer;
  const subscribe = async (h: Headers) => {
    const res = await call('POST', '/payments/subscription', h, {
      subscription_plan: 'premium-monthly',
      amount_money: { amount: 999, currency: 'USD' },
      source_id: 'cnon:card-nonce-ok',
      idempotency_key: key(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PaymentAnswer;
  };
  const refund = (h: Headers, paymentId: string, body: object) => call('POST', `/admin/payments/${paymentId}/refund`, h, body);
  const refundRows = (paymentId: string) =>
    t().db.selectFrom('payment_refunds').selectAll().where('payment_id', '=', paymentId).execute();
  const audits = (paymentId: string) =>
    t()
      .db.selectFrom('audit_log')
      .select(['action', 'admin_id', 'reason'])
      .where('target_id', '=', paymentId)
      .orderBy('id')
      .execute();
  const mails = () => {
    const dir = t().config.mail.outboxDir;
    return existsSync(dir) ? readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8')) : [];
  };

  it('refunds part, then the rest, through the provider: once per key, never more than is left, audited, mailed, in his history', async () => {
    const m = await member();
    const paid = await oneTime(m.h, 1000);
    const owner = await staff('owner');
    const revenueToday = async () => (await call('GET', '/admin/dashboard', owner.h)).json().today.revenue as number;
    const grossToday = await revenueToday();

    const found = (await call('GET', `/admin/payments?q=${m.anon}`, owner.h)).json() as AdminPaymentsPage;
    expect(found.rows).toEqual([
      expect.objectContaining({ id: paid.payment_id, anonymousId: m.anon, amount: 1000, refunded: 0, status: 'completed' }),
    ]);
    // A payment's own id finds it too.
    expect(((await call('GET', `/admin/payments?q=${paid.payment_id}`, owner.h)).json() as AdminPaymentsPage).total).toBe(1);

    // Five racing requests with one key: one refund, the same answer to each.
    const k1 = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        refund(owner.h, paid.payment_id!, { amountCents: 400, reason: 'Goodwill', idempotencyKey: k1 }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const first = answers[0]!.json() as RefundAnswer;
    expect(new Set(answers.map((a) => (a.json() as RefundAnswer).refund.id)).size).toBe(1);
    expect(first.refund).toMatchObject({ amount: 400, reason: 'Goodwill', status: 'completed', canceledSubscription: false });
    expect(first.refund.providerRefundId).toMatch(/^sandbox-refund-/);
    expect(first.payment).toMatchObject({ refunded: 400, refundable: 600, status: 'partially_refunded' });
    expect(await refundRows(paid.payment_id!)).toHaveLength(1);

    // More than is left: a clear 400, nothing written.
    const over = await refund(owner.h, paid.payment_id!, { amountCents: 700, reason: 'Goodwill', idempotencyKey: randomUUID() });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('The refund is more than what is left of the payment: at most $6.00.');
    for (const bad of [
      { amountCents: 0, reason: 'Goodwill', idempotencyKey: randomUUID() },
      { amountCents: 1.5, reason: 'Goodwill', idempotencyKey: randomUUID() },
      { amountCents: 100, reason: '   ', idempotencyKey: randomUUID() },
      { amountCents: 100, idempotencyKey: randomUUID() },
      { amountCents: 100, reason: 'Goodwill' },
    ])
      expect((await refund(owner.h, paid.payment_id!, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    expect(await refundRows(paid.payment_id!)).toHaveLength(1);

    // No amount: all that is left.
    const rest = await refund(owner.h, paid.payment_id!, { reason: 'Asked to close his account', idempotencyKey: randomUUID() });
    expect(rest.statusCode, rest.body).toBe(200);
    expect((rest.json() as RefundAnswer).refund.amount).toBe(600);
    expect((rest.json() as RefundAnswer).payment).toMatchObject({ refunded: 1000, refundable: 0, status: 'refunded' });
    const done = await refund(owner.h, paid.payment_id!, { reason: 'Again', idempotencyKey: randomUUID() });
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toBe('This payment has been refunded in full already.');

    const detail = (await call('GET', `/admin/payments/${paid.payment_id}`, owner.h)).json() as AdminPaymentDetail;
    // The test's clock stands still: both refunds share a time, so compare them in amount order.
    expect(detail.refunds.map((r) => [r.amount, r.reason]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [400, 'Goodwill'],
      [600, 'Asked to close his account'],
    ]);
    expect(detail).toMatchObject({ subscription: null, paysCurrentPeriod: false, note: 'Extra photos pack' });
    // Audited in the refund's transaction: one row each, by the owner, with the reason and amount.
    const rows = await audits(paid.payment_id!);
    expect(rows.map((r) => r.action)).toEqual(['payment_refund', 'payment_refund']);
    expect(rows.every((r) => r.admin_id === owner.id)).toBe(true);
    expect(rows.map((r) => r.reason)).toContain('Goodwill — $4.00 of $10.00');

    // His payment history shows both refunds; what he spent is what he kept paid.
    const mine = (await call('GET', '/billing', m.h)).json() as BillingSummary;
    expect(mine.payments.map((p) => [p.kind, p.status, p.amount])).toEqual(
      expect.arrayContaining([
        ['one_time', 'completed', 1000],
        ['refund', 'completed', 400],
        ['refund', 'completed', 600],
      ]),
    );
    expect(mine.stats.totalSpent).toBe(0);
    // The dashboard's revenue of the day is net of them too.
    expect(grossToday - (await revenueToday())).toBe(1000);
    await expect
      .poll(() =>
        mails().some((x) => x.includes(m.email) && x.includes('Your FMK refund: $4.00') && x.includes('Extra photos pack')),
      )
      .toBe(true);
  });

  it('refuses what may not be refunded, and lets only payments.edit refund', async () => {
    const m = await member();
    const failed = await oneTime(m.h, 700, 'cnon:card-nonce-declined');
    expect(failed.success).toBe(false);
    const failedId = (
      await t()
        .db.selectFrom('payments')
        .select('id')
        .where('user_id', '=', m.id)
        .where('status', '=', 'failed')
        .executeTakeFirstOrThrow()
    ).id;
    const paid = await oneTime(m.h, 500);
    const [owner, admin, mod] = [await staff('owner'), await staff('admin'), await staff('moderator')];
    const body = { amountCents: 100, reason: 'Goodwill', idempotencyKey: randomUUID() };

    const notPaid = await refund(owner.h, failedId, body);
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.json().message).toBe('Only a completed payment can be refunded.');
    expect((await refund(owner.h, randomUUID(), body)).statusCode).toBe(404);
    expect((await call('GET', `/admin/payments/${randomUUID()}`, owner.h)).statusCode).toBe(404);

    // An admin sees payments (read-only) but may not refund; a moderator and a member see nothing.
    expect((await call('GET', '/admin/payments', admin.h)).statusCode).toBe(200);
    expect((await call('GET', `/admin/payments/${paid.payment_id}`, admin.h)).statusCode).toBe(200);
    expect((await refund(admin.h, paid.payment_id!, body)).statusCode).toBe(403);
    expect((await call('GET', '/admin/payments', mod.h)).statusCode).toBe(403);
    expect((await refund(mod.h, paid.payment_id!, body)).statusCode).toBe(403);
    expect((await call('GET', '/admin/payments', m.h)).statusCode).toBe(403);
    expect((await refund(m.h, paid.payment_id!, body)).statusCode).toBe(403);
    expect(await refundRows(paid.payment_id!)).toHaveLength(0);
    expect(await audits(paid.payment_id!)).toHaveLength(0);
  });

  it('filters by status, plan and UTC days, pages on the server, and refuses a bad range', async () => {
    const a = await member();
    const sub = await subscribe(a.h);
    const b = await member();
    const extra = await oneTime(b.h, 300);
    await oneTime(b.h, 800, 'cnon:card-nonce-declined');
    const owner = await staff('owner');
    await refund(owner.h, extra.payment_id!, { amountCents: 100, reason: 'Goodwill', idempotencyKey: randomUUID() });
    const list = async (qs: string) => {
      const res = await call('GET', `/admin/payments?${qs}`, owner.h);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as AdminPaymentsPage;
    };
    const ids = (p: AdminPaymentsPage) => p.rows.map((r) => r.id);
    expect(ids(await list(`q=${a.anon}&plan=premium-monthly`))).toEqual([sub.payment_id]);
    expect(ids(await list(`q=${a.anon}&plan=one_time`))).toEqual([]);
    expect(ids(await list(`q=${b.anon}&status=partially_refunded`))).toEqual([extra.payment_id]);
    expect((await list(`q=${b.anon}&status=failed`)).rows.map((r) => r.amount)).toEqual([800]);
    expect(ids(await list(`q=${b.anon}&status=completed`))).toEqual([]);
    expect((await list(`q=${b.anon}`)).rows[0]).toMatchObject({ kind: 'one_time', planName: null, note: 'Extra photos pack' });
    const today = t().clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(t().clock.now().getTime() + DAY).toISOString().slice(0, 10);
    expect((await list(`q=${b.anon}&from=${today}&to=${today}`)).total).toBe(2);
    expect((await list(`q=${b.anon}&from=${tomorrow}`)).total).toBe(0);
    const all = await list('page=1');
    expect(all.pageSize).toBe(50);
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect((await list('page=2')).rows).toEqual([]);
    const backwards = await call('GET', `/admin/payments?from=${tomorrow}&to=${today}`, owner.h);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('The start date must be on or before the end date.');
    expect((await call('GET', '/admin/payments?from=2026-13-45', owner.h)).statusCode).toBe(400);
    expect((await call('GET', '/admin/payments?status=lost', owner.h)).statusCode).toBe(400);
  });

  it("a full refund of the current period's payment ends the subscription and the tier; a partial one or an older period's keeps it", async () => {
    const m = await member();
    const sub = await subscribe(m.h);
    const owner = await staff('owner');
    const part = (
      await refund(owner.h, sub.payment_id!, { amountCents: 300, reason: 'Slow week', idempotencyKey: randomUUID() })
    ).json() as RefundAnswer;
    expect(part.payment).toMatchObject({ paysCurrentPeriod: true, subscription: { status: 'active' } });
    expect(((await call('GET', '/billing', m.h)).json() as BillingSummary).tier).toBe('premium');
    const full = await refund(owner.h, sub.payment_id!, { reason: 'Did not want it', idempotencyKey: randomUUID() });
    expect(full.statusCode, full.body).toBe(200);
    const answer = full.json() as RefundAnswer;
    expect(answer.refund).toMatchObject({ amount: 699, canceledSubscription: true });
    expect(answer.payment.subscription?.status).toBe('canceled');
    const mine = (await call('GET', '/billing', m.h)).json() as BillingSummary;
    expect(mine.tier).toBe('free');
    expect(mine.subscription).toBeNull();
    expect((await audits(sub.payment_id!)).at(-1)?.reason).toContain('the subscription it paid for ended');

    // A month on, the first payment no longer pays for the current period: refunding it keeps the plan.
    const renewing = await member();
    const second = await subscribe(renewing.h);
    await call('POST', '/test/clock', {}, { advanceMs: 30 * DAY + 1000 });
    const later = await staff('owner');
    const old = await refund(later.h, second.payment_id!, { reason: 'Charged in error', idempotencyKey: randomUUID() });
    expect(old.statusCode, old.body).toBe(200);
    expect((old.json() as RefundAnswer).refund.canceledSubscription).toBe(false);
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: renewing.email, password: PASSWORD },
    });
    const still = (await call('GET', '/billing', { authorization: `Bearer ${login.json().token}` })).json() as BillingSummary;
    expect(still).toMatchObject({ tier: 'premium', subscription: { status: 'active' } });
  });
});
