import type { AdminSubscriptionRow } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

const row = (id: string, extra: Partial<AdminSubscriptionRow> = {}): AdminSubscriptionRow => ({
  id,
  userId: `user-${id}`,
  anonymousId: `anon-${id}`,
  displayName: `Member ${id}`,
  planId: 'premium-monthly',
  planName: 'Premium',
  status: 'active',
  amount: 999,
  currency: 'USD',
  cancelAtPeriodEnd: false,
  comp: false,
  currentPeriodEnd: '2026-12-20T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  ...extra,
});

/** The server as the browser meets it: /admin/me for the role, the subscriptions; every call recorded. */
const serve = (role: string, subs: (url: URL) => Response, permissions: string[] | null = null) =>
  serveAdmin(role, (_m, url) => (url.pathname.endsWith('/admin/subscriptions') ? subs(url) : undefined), { permissions });

afterEach(resetAdmin);

const page = (rows: AdminSubscriptionRow[], total = rows.length, p = 1) =>
  json({ rows, total, page: p, pageSize: 50, counts: { active: 7, past_due: 2, canceled: 4 } });

describe('subscriptions', () => {
  it('lists subscriptions with counts by status, and sends the search, filters and page to the server', async () => {
    const calls = serve('moderator', (url) =>
      page(
        [row('a'), row('b', { status: 'past_due', planName: 'Platinum', amount: 1999, cancelAtPeriodEnd: true })],
        120,
        Number(url.searchParams.get('page') ?? 1),
      ),
    );
    startAdmin('/admin/subscriptions');
    expect(await screen.findByRole('heading', { name: 'Subscriptions', level: 1 })).toBeTruthy();
    const counts = await screen.findByRole('list', { name: 'Subscriptions by status' });
    expect(within(counts).getByText('Past due').nextSibling?.textContent).toBe('2');
    const table = screen.getByRole('region', { name: 'Subscriptions' });
    expect(within(table).getByText('Member a')).toBeTruthy();
    expect(within(table).getByText('Past due, ends at period end')).toBeTruthy();
    expect(within(table).getByText('$19.99 USD')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'anon-b' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'past_due' } });
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'platinum-monthly' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname.endsWith('/admin/subscriptions')).at(-1);
      expect(Object.fromEntries(last!.url.searchParams)).toEqual({
        q: 'anon-b',
        status: 'past_due',
        plan: 'platinum-monthly',
        page: '1',
      });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname.endsWith('/admin/subscriptions') && c.url.searchParams.get('page') === '2')).toBe(
        true,
      ),
    );
  });

  it('says so when nothing matches, and offers to try again when the list fails', async () => {
    serve('owner', () => page([]));
    startAdmin('/admin/subscriptions');
    expect(await screen.findByText('No subscriptions match')).toBeTruthy();
    cleanup();
    serve('owner', () => json({ error: 'x', message: 'Server down' }, 500));
    startAdmin('/admin/subscriptions');
    expect(await screen.findByText('Could not load subscriptions')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
  });
});
