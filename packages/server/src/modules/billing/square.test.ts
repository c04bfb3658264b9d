import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BillingSummary, PaymentAnswer, RefundAnswer } from '@fmk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTier, signUp, signUpStaff } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { signWebhook } from '../../platform/payments/provider.ts';
import { SquareProvider } from '../../platform/payments/square.ts';

/**
 * A local stand-in for the Square REST endpoints the adapter uses (customers, cards, payments,
 * refunds, card disable), answering in Square's JSON shapes (snake_case, errors[] with category and code),
 * so the official SDK is exercised for real, request and answer, without the network.
 */
interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  body: Record<string, unknown>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

function startSquare(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const payments = new Map<string, unknown>();
  /** Each payment's amount and what its refunds took, by Square's payment id. */
  const taken = new Map<string, { amount: number; refunded: number }>();
  const refunds = new Map<string, unknown>();
  let n = 0;
  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    seen.push({ method: req.method ?? '', path, auth: req.headers.authorization, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const refuse = (code: string) =>
      send(400, { errors: [{ category: 'PAYMENT_METHOD_ERROR', code, detail: 'Refused by the stand-in.' }] });
    if (req.headers.authorization !== 'Bearer sq-token')
      return send(401, { errors: [{ category: 'AUTHENTICATION_ERROR', code: 'UNAUTHORIZED' }] });
    if (req.method === 'POST' && path === '/v2/customers') {
      return send(200, { customer: { id: `CUST${++n}`, reference_id: body.reference_id, email_address: body.email_address } });
    }
    if (req.method === 'POST' && path === '/v2/cards') {
      if (body.source_id === 'cnon:card-nonce-declined') return refuse('CARD_DECLINED');
      const card = body.card as { customer_id: string };
      return send(200, {
        card: {
          id: `ccof:${++n}`,
          card_brand: 'VISA',
          last_4: '1111',
          exp_month: 12,
          exp_year: 2030,
          customer_id: card.customer_id,
          enabled: true,
        },
      });
    }
    if (req.method === 'POST' && path === '/v2/payments') {
      const key = String(body.idempotency_key);
      const prior = payments.get(key);
      if (prior) return send(200, prior);
      const money = body.amount_money as { amount: number; currency: string };
      if (money.amount === 13) return refuse('CARD_DECLINED');
      const answer = { payment: { id: `PAY${++n}`, status: 'COMPLETED', amount_money: money, location_id: body.location_id } };
      payments.set(key, answer);
      taken.set(answer.payment.id, { amount: money.amount, refunded: 0 });
      return send(200, answer);
    }
    // RefundPayment: a card refund is PENDING until Square's refund.updated webhook settles it.
    if (req.method === 'POST' && path === '/v2/refunds') {
      const key = String(body.idempotency_key);
      const prior = refunds.get(key);
      if (prior) return send(200, prior);
      const money = body.amount_money as { amount: number; currency: string };
      const payment = taken.get(String(body.payment_id));
      if (!payment) return send(404, { errors: [{ category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND' }] });
      const refusal = (code: string, detail: string) => send(400, { errors: [{ category: 'REFUND_ERROR', code, detail }] });
      if (money.amount > payment.amount - payment.refunded)
        return refusal('REFUND_AMOUNT_INVALID', 'The requested refund amount exceeds the amount available to refund.');
      if (money.amount === 13) return refusal('REFUND_DECLINED', 'The card declined the refund.');
      payment.refunded += money.amount;
      const answer = {
        refund: {
          id: `REF${++n}`,
          status: 'PENDING',
          amount_money: money,
          payment_id: body.payment_id,
          reason: body.reason,
          location_id: 'LOC1',
        },
      };
      refunds.set(key, answer);
      return send(200, answer);
    }
    const disable = /^\/v2\/cards\/([^/]+)\/disable$/.exec(path);
    if (req.method === 'POST' && disable)
      return send(200, { card: { id: decodeURIComponent(disable[1] ?? ''), enabled: false } });
    send(404, { errors: [{ category: 'INVALID_REQUEST_ERROR', code: 'NOT_FOUND' }] });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }),
    ),
  );
}

const square = { server: null as Server | null, url: '', seen: [] as Seen[] };
beforeAll(async () => Object.assign(square, await startSquare()));
afterAll(() => new Promise<void>((resolve) => (square.server ? square.server.close(() => resolve()) : resolve())));

const SQUARE = {
  kind: 'square',
  accessToken: 'sq-token',
  locationId: 'LOC1',
  environment: 'sandbox',
  webhookKey: 'sq-signature-key',
  applicationId: 'sandbox-sq0idb-app',
} as const;

describe('the Square adapter against a local stand-in', () => {
  const provider = () => new SquareProvider({ ...SQUARE, baseUrl: square.url });

  it('creates a customer, saves a card, charges it once per key, reports declines and disables the card', async () => {
    const p = provider();
    const customerId = await p.createCustomer({ referenceId: 'u1', email: 'a@example.com', idempotencyKey: 'k-cust' });
    expect(customerId).toMatch(/^CUST/);
    const created = square.seen.at(-1);
    expect(created).toMatchObject({
      path: '/v2/customers',
      auth: 'Bearer sq-token',
      body: { reference_id: 'u1', email_address: 'a@example.com', idempotency_key: 'k-cust' },
    });

    const saved = await p.saveCard({ customerId, sourceId: 'cnon:card-nonce-ok', idempotencyKey: 'k-card' });
    expect(saved).toEqual({
      ok: true,
      card: { cardId: expect.stringMatching(/^ccof:/), brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030 },
    });
    expect(square.seen.at(-1)?.body).toMatchObject({ source_id: 'cnon:card-nonce-ok', card: { customer_id: customerId } });
    expect(await p.saveCard({ customerId, sourceId: 'cnon:card-nonce-declined', idempotencyKey: 'k-card2' })).toEqual({
      ok: false,
      code: 'CARD_DECLINED',
    });

    if (!saved.ok) throw new Error('card not saved');
    const charge = {
      customerId,
      cardId: saved.card.cardId,
      amountCents: 999,
      currency: 'USD',
      idempotencyKey: 'k-pay',
      note: 'FMK Premium',
    };
    const first = await p.charge(charge);
    const again = await p.charge(charge);
    expect(first).toEqual({ ok: true, paymentId: expect.stringMatching(/^PAY/) });
    expect(again).toEqual(first);
    expect(square.seen.at(-1)?.body).toMatchObject({
      source_id: saved.card.cardId,
      amount_money: { amount: 999, currency: 'USD' },
      autocomplete: true,
      customer_id: customerId,
      location_id: 'LOC1',
      idempotency_key: 'k-pay',
    });
    expect(await p.charge({ ...charge, amountCents: 13, idempotencyKey: 'k-pay2' })).toEqual({
      ok: false,
      code: 'CARD_DECLINED',
    });
    await p.disableCard(saved.card.cardId);
    expect(square.seen.at(-1)?.path).toBe(`/v2/cards/${encodeURIComponent(saved.card.cardId)}/disable`);
  });

  it('refunds a payment in part through RefundPayment, once per key, and reports what Square refuses', async () => {
    const p = provider();
    const customerId = await p.createCustomer({ referenceId: 'u2', email: 'b@example.com', idempotencyKey: 'k-cust-r' });
    const saved = await p.saveCard({ customerId, sourceId: 'cnon:card-nonce-ok', idempotencyKey: 'k-card-r' });
    if (!saved.ok) throw new Error('card not saved');
    const paid = await p.charge({
      customerId,
      cardId: saved.card.cardId,
      amountCents: 999,
      currency: 'USD',
      idempotencyKey: 'k-pay-r',
    });
    if (!paid.ok) throw new Error('not charged');
    const input = { paymentId: paid.paymentId, amountCents: 400, currency: 'USD', idempotencyKey: 'k-ref-1', reason: 'Goodwill' };
    const first = await p.refund(input);
    expect(first).toEqual({ ok: true, refundId: expect.stringMatching(/^REF/), status: 'pending' });
    expect(square.seen.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v2/refunds',
      auth: 'Bearer sq-token',
      body: {
        idempotency_key: 'k-ref-1',
        amount_money: { amount: 400, currency: 'USD' },
        payment_id: paid.paymentId,
        reason: 'Goodwill',
      },
    });
    expect(await p.refund(input)).toEqual(first);
    expect(await p.refund({ ...input, amountCents: 600, idempotencyKey: 'k-ref-2' })).toEqual({
      ok: false,
      code: 'REFUND_AMOUNT_INVALID',
    });
    expect(await p.refund({ ...input, amountCents: 13, idempotencyKey: 'k-ref-3' })).toEqual({
      ok: false,
      code: 'REFUND_DECLINED',
    });
  });

  it("checks webhook signatures with the SDK's helper: Square's HMAC of URL and body", async () => {
    const p = provider();
    const url = 'https://fmk.example/api/v1/billing/webhooks';
    const body = JSON.stringify({ event_id: 'e1', type: 'payment.updated' });
    expect(await p.verifyWebhook(body, signWebhook(SQUARE.webhookKey, url, body), url)).toBe(true);
    expect(await p.verifyWebhook(body, signWebhook('other-key', url, body), url)).toBe(false);
    expect(await p.verifyWebhook(`${body} `, signWebhook(SQUARE.webhookKey, url, body), url)).toBe(false);
    expect(await p.verifyWebhook(body, undefined, url)).toBe(false);
  });
});

describe.each(DB_KINDS)('subscribing through Square (the stand-in) on %s', (kind) => {
  const env: Record<string, string> = {};
  beforeAll(() => {
    Object.assign(env, {
      SQUARE_ACCESS_TOKEN: SQUARE.accessToken,
      SQUARE_LOCATION_ID: SQUARE.locationId,
      SQUARE_WEBHOOK_SIGNATURE_KEY: SQUARE.webhookKey,
      SQUARE_APPLICATION_ID: SQUARE.applicationId,
      SQUARE_API_URL: square.url,
    });
  });
  const t = useTestApp(kind, { env });

  it('charges the plan through Square and answers with its ids; the web is told to use Square’s card form', async () => {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/v1/payments/subscription',
      headers: u.headers,
      payload: {
        subscription_plan: 'premium-monthly',
        amount_money: { amount: 999, currency: 'USD' },
        source_id: 'cnon:card-nonce-ok',
        idempotency_key: `sq-${kind}`,
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as PaymentAnswer;
    expect(body.customer_id).toMatch(/^CUST/);
    const billing = (await t().app.inject({ method: 'GET', url: '/api/v1/billing', headers: u.headers })).json();
    expect(billing.tier).toBe('premium');
    expect(billing.provider).toEqual({
      kind: 'square',
      applicationId: SQUARE.applicationId,
      locationId: 'LOC1',
      environment: 'sandbox',
    });
    const stored = await t()
      .db.selectFrom('payments')
      .select('provider_payment_id')
      .where('id', '=', body.payment_id as string)
      .executeTakeFirstOrThrow();
    expect(stored.provider_payment_id).toMatch(/^PAY/);
  });

  it('refunds through Square: pending until its signed refund.updated webhook, once per event; a refusal changes nothing', async () => {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    const paid = (
      await t().app.inject({
        method: 'POST',
        url: '/api/v1/payments/subscription',
        headers: u.headers,
        payload: {
          subscription_plan: 'premium-monthly',
          amount_money: { amount: 999, currency: 'USD' },
          source_id: 'cnon:card-nonce-ok',
          idempotency_key: `sq-refund-${kind}`,
        },
      })
    ).json() as PaymentAnswer;
    const owner = (await signUpStaff(t().app, t().db, 'owner', t().clock.now())).staffHeaders;
    const refund = (amountCents: number) =>
      t().app.inject({
        method: 'POST',
        url: `/api/v1/admin/payments/${paid.payment_id}/refund`,
        headers: owner,
        payload: { amountCents, reason: 'Goodwill', idempotencyKey: randomUUID() },
      });
    const refused = await refund(13);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().message).toBe('Refund failed: the provider answered REFUND_DECLINED.');
    const res = await refund(500);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as RefundAnswer;
    expect(answer.refund).toMatchObject({ amount: 500, status: 'pending', providerRefundId: expect.stringMatching(/^REF/) });
    expect(square.seen.at(-1)?.body).toMatchObject({ payment_id: expect.stringMatching(/^PAY/), amount_money: { amount: 500 } });
    const history = async () =>
      ((await t().app.inject({ method: 'GET', url: '/api/v1/billing', headers: u.headers })).json() as BillingSummary).payments
        .filter((p) => p.kind === 'refund')
        .map((p) => [p.status, p.amount]);
    expect(await history()).toEqual([['pending', 500]]);

    const url = `${t().config.publicUrl}/api/v1/billing/webhooks`;
    const raw = JSON.stringify({
      event_id: `sq-evt-${kind}-${randomUUID()}`,
      type: 'refund.updated',
      data: {
        type: 'refund',
        id: answer.refund.providerRefundId,
        object: { refund: { id: answer.refund.providerRefundId, status: 'COMPLETED', payment_id: 'PAY' } },
      },
    });
    const send = () =>
      t().app.inject({
        method: 'POST',
        url: '/api/v1/billing/webhooks',
        headers: {
          'content-type': 'application/json',
          'x-square-hmacsha256-signature': signWebhook(SQUARE.webhookKey, url, raw),
        },
        payload: raw,
      });
    expect((await send()).json()).toEqual({ processed: true });
    expect((await send()).json()).toEqual({ processed: false });
    expect(await history()).toEqual([['completed', 500]]);
  });
});
