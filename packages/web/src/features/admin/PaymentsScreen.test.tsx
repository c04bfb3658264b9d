import type { AdminPaymentDetail, AdminPaymentRow, RefundAnswer } from '@fmk/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

afterEach(resetAdmin);

const row = (id: string, extra: Partial<AdminPaymentRow> = {}): AdminPaymentRow => ({
  id,
  providerPaymentId: `sandbox-pay-${id}`,
  userId: `user-${id}`,
  anonymousId: `anon-${id}`,
  displayName: `Member ${id}`,
  kind: 'subscription',
  planName: 'Premium',
  note: 'Premium',
  amount: 999,
  refunded: 0,
  currency: 'USD',
  status: 'completed',
  createdAt: '2026-11-20T10:00:00.000Z',
  ...extra,
});

const detail = (r: AdminPaymentRow, extra: Partial<AdminPaymentDetail> = {}): AdminPaymentDetail => ({
  ...r,
  refundable: r.amount - r.refunded,
  subscription: {
    id: 'sub-1',
    planName: 'Premium',
    status: 'active',
    currentPeriodStart: '2026-11-20T10:00:00.000Z',
    currentPeriodEnd: '2026-12-20T10:00:00.000Z',
  },
  paysCurrentPeriod: true,
  refunds: [],
  ...extra,
});

const page = (rows: AdminPaymentRow[], total = rows.length, p = 1) => json({ rows, total, page: p, pageSize: 50 });
const path = (url: URL) => url.pathname.replace('/api/v1', '');

describe('payments', () => {
  it('lists payments and sends the search, filters, days and page to the server', async () => {
    const calls = serveAdmin('owner', (_m, url) =>
      path(url) === '/admin/payments'
        ? page(
            [
              row('a'),
              row('b', {
                kind: 'one_time',
                planName: null,
                note: 'Extra boost',
                amount: 499,
                refunded: 200,
                status: 'partially_refunded',
              }),
            ],
            120,
            Number(url.searchParams.get('page') ?? 1),
          )
        : undefined,
    );
    startAdmin('/admin/payments');
    expect(await screen.findByRole('heading', { name: 'Payments', level: 1 })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Payments' });
    expect(within(table).getByText('Member a')).toBeTruthy();
    expect(within(table).getByText('Premium, first month')).toBeTruthy();
    expect(within(table).getByText('Extra boost')).toBeTruthy();
    expect(within(table).getByText('−$2.00 refunded')).toBeTruthy();
    expect(within(table).getByText('Partly refunded')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'anon-b' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'partially_refunded' } });
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'one_time' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => {
      const last = calls.filter((c) => path(c.url) === '/admin/payments').at(-1);
      expect(Object.fromEntries(last!.url.searchParams)).toEqual({
        q: 'anon-b',
        status: 'partially_refunded',
        plan: 'one_time',
        from: '2026-11-01',
        to: '2026-11-30',
        page: '1',
      });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(calls.some((c) => path(c.url) === '/admin/payments' && c.url.searchParams.get('page') === '2')).toBe(true),
    );
  });

  it('refunds part of a payment with a reason, once per attempt, and warns when all of it would end the subscription', async () => {
    const paid = row('a');
    let current = detail(paid);
    const calls = serveAdmin('owner', (method, url, body) => {
      const p = path(url);
      if (p === '/admin/payments') return page([paid]);
      if (p === '/admin/payments/a' && method === 'GET') return json(current);
      if (p === '/admin/payments/a/refund' && method === 'POST') {
        const b = body as { amountCents: number; reason: string };
        const refund = {
          id: 'r1',
          amount: b.amountCents,
          reason: b.reason,
          status: 'completed' as const,
          providerRefundId: 'sandbox-refund-1',
          canceledSubscription: false,
          createdAt: '2026-11-27T10:00:00.000Z',
        };
        current = detail({ ...paid, refunded: b.amountCents, status: 'partially_refunded' }, { refunds: [refund] });
        return json({ refund, payment: current } satisfies RefundAnswer);
      }
      return undefined;
    });
    startAdmin('/admin/payments');
    fireEvent.click(await screen.findByRole('button', { name: /Open the \$9\.99 payment/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Payment' });
    expect(await within(sheet).findByText('sandbox-pay-a')).toBeTruthy();
    const amount = within(sheet).getByLabelText('Amount to refund (USD)') as HTMLInputElement;
    // All that is left is offered first, with what it would do to the subscription.
    expect(amount.value).toBe('9.99');
    expect(within(sheet).getByText(/ends his Premium subscription now/)).toBeTruthy();

    // Too much, or no reason: said at once, nothing sent.
    fireEvent.change(amount, { target: { value: '12' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Refund $12.00' }));
    expect(await within(sheet).findByText('At most $9.99 is left to refund.')).toBeTruthy();
    fireEvent.change(amount, { target: { value: '4' } });
    expect(within(sheet).queryByText(/ends his Premium subscription now/)).toBeNull();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Refund $4.00' }));
    expect(await within(sheet).findByText('Give a reason for the refund.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(sheet).getByLabelText('Reason'), { target: { value: 'Charged twice' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Refund $4.00' }));
    expect(await within(sheet).findByText('Refunded $4.00.')).toBeTruthy();
    const sent = calls.filter((c) => c.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ amountCents: 400, reason: 'Charged twice', idempotencyKey: expect.any(String) });
    const refunds = await within(sheet).findByRole('region', { name: 'Refunds of this payment' });
    expect(within(refunds).getByText('Charged twice')).toBeTruthy();
    await waitFor(() => expect((within(sheet).getByLabelText('Amount to refund (USD)') as HTMLInputElement).value).toBe('5.99'));
  });

  it('shows the server refusing a refund, and gives read-only staff no refund form', async () => {
    serveAdmin('owner', (method, url) => {
      const p = path(url);
      if (p === '/admin/payments') return page([row('a')]);
      if (p === '/admin/payments/a') return json(detail(row('a')));
      if (method === 'POST')
        return json({ error: 'refund_failed', message: 'Refund failed: the provider answered REFUND_DECLINED.' }, 402);
      return undefined;
    });
    startAdmin('/admin/payments');
    fireEvent.click(await screen.findByRole('button', { name: /Open the \$9\.99 payment/ }));
    const sheet = await screen.findByRole('dialog', { name: 'Payment' });
    fireEvent.change(await within(sheet).findByLabelText('Reason'), { target: { value: 'Goodwill' } });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Refund $9.99' }));
    expect(await within(sheet).findByText('Refund failed: the provider answered REFUND_DECLINED.')).toBeTruthy();
    resetAdmin();

    serveAdmin('admin', (_m, url) => {
      const p = path(url);
      if (p === '/admin/payments') return page([row('a')]);
      if (p === '/admin/payments/a') return json(detail(row('a')));
      return undefined;
    });
    startAdmin('/admin/payments');
    fireEvent.click(await screen.findByRole('button', { name: /Open the \$9\.99 payment/ }));
    const readOnly = await screen.findByRole('dialog', { name: 'Payment' });
    expect(await within(readOnly).findByText('sandbox-pay-a')).toBeTruthy();
    expect(within(readOnly).queryByRole('form', { name: 'Refund' })).toBeNull();
  });

  it('says so when nothing matches, and offers to try again when the list fails', async () => {
    serveAdmin('owner', () => page([]));
    startAdmin('/admin/payments');
    expect(await screen.findByText('No payments yet')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'refunded' } });
    expect(await screen.findByText('No payments match')).toBeTruthy();
    resetAdmin();
    serveAdmin('owner', () => json({ error: 'x', message: 'Server down' }, 500));
    startAdmin('/admin/payments');
    expect(await screen.findByText('Could not load payments')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
  });

  it('is not in a moderator’s menu, and its address sends him to his first screen', async () => {
    serveAdmin('moderator', () => undefined);
    startAdmin('/admin/payments');
    const nav = await screen.findAllByRole('navigation', { name: 'Admin' });
    expect([...nav[0]!.querySelectorAll('a')].map((a) => a.textContent)).not.toContain('Payments');
    expect(screen.queryByRole('heading', { name: 'Payments', level: 1 })).toBeNull();
  });
});
