import type { Financial } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

const FIGURES: Financial = {
  now: '2026-11-27T12:00:00.000Z',
  mrr: 2998,
  payingSubscriptions: 2,
  revenueDays: 30,
  revenueTotal: 4497,
  refundsTotal: 500,
  revenueByDay: [
    { day: '2026-11-26', cents: 0 },
    { day: '2026-11-27', cents: 4497 },
  ],
  revenueByPlan: [
    { plan: 'Platinum', cents: 1999, payments: 1 },
    { plan: 'One-time payments', cents: 500, payments: 1 },
  ],
  churn: [{ month: '2026-10', liveAtStart: 2, ended: 1, rate: 0.5 }],
  observedChurn: 0.25,
  forecast: [
    { month: '2026-11', expected: 0, renewals: 0, ceiling: 0 },
    { month: '2026-12', expected: 749, renewals: 1, ceiling: 999 },
    { month: '2027-01', expected: 562, renewals: 1, ceiling: 999 },
  ],
  method: 'Each paying subscription that will renew is charged every 30 days.',
};

/** The server as the browser meets it: /admin/me for the role, the money figures; every call recorded. */
const serve = (role: string, figures: (url: URL) => Response, permissions: string[] | null = null) =>
  serveAdmin(role, (_m, url) => (url.pathname.endsWith('/admin/financial') ? figures(url) : undefined), { permissions });

afterEach(resetAdmin);

describe('the money screens', () => {
  it('financial shows MRR, paying subscriptions, the period revenue and the churn', async () => {
    serve('admin', () => json(FIGURES));
    startAdmin('/admin/financial');
    const figures = await screen.findByRole('list', { name: 'Figures' });
    expect(within(figures).getByText('Monthly recurring revenue').nextSibling?.textContent).toBe('$29.98');
    expect(within(figures).getByText('Revenue (net), last 30 days').nextSibling?.textContent).toBe('$44.97');
    expect(within(figures).getByText('Refunded, last 30 days').nextSibling?.textContent).toBe('$5.00');
    expect(within(figures).getByText('Monthly churn (observed)').nextSibling?.textContent).toBe('25.0 %');
  });

  it('financial/revenue shows revenue by day and plan and churn by month, and asks the server for 90 days', async () => {
    const calls = serve('owner', (url) => json({ ...FIGURES, revenueDays: Number(url.searchParams.get('days')) }));
    startAdmin('/admin/financial/revenue');
    const byDay = await screen.findByRole('region', { name: 'Revenue by day' });
    expect(within(byDay).getAllByRole('row')).toHaveLength(2);
    expect(within(byDay).getByText('$44.97')).toBeTruthy();
    expect(screen.getByText(/net of \$5\.00 refunded/)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Revenue by plan' })).getByText('One-time payments')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Churn by month' })).getByText('50.0 %')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '90' } });
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname.endsWith('/admin/financial') && c.url.searchParams.get('days') === '90')).toBe(
        true,
      ),
    );
  });

  it('financial/forecasting states its method and lists the expected months; empty with no paying subscription', async () => {
    const calls = serve('owner', () => json(FIGURES));
    startAdmin('/admin/financial/forecasting');
    expect(await screen.findByRole('region', { name: 'How the forecast is made' })).toBeTruthy();
    expect(screen.getByText(FIGURES.method)).toBeTruthy();
    const table = screen.getByRole('region', { name: 'Expected revenue by month' });
    expect(within(table).getByText('$7.49')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Months ahead'), { target: { value: '3' } });
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('months') === '3')).toBe(true));
    cleanup();
    serve('owner', () => json({ ...FIGURES, payingSubscriptions: 0 }));
    startAdmin('/admin/financial/forecasting');
    expect(await screen.findByText('Nothing to forecast')).toBeTruthy();
  });

  it('offers to try again when the figures fail', async () => {
    serve('owner', () => json({ error: 'x', message: 'Server down' }, 500));
    startAdmin('/admin/financial');
    expect(await screen.findByText('Could not load the financial figures')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
  });
});
