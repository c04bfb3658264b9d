import type { PlanRecord } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

const plan = (id: string, extra: Partial<PlanRecord> = {}): PlanRecord => ({
  id,
  tier: 'premium',
  name: 'Premium',
  priceCents: 999,
  currency: 'USD',
  interval: 'monthly',
  features: ['Unlimited swipes', 'See who likes you'],
  active: true,
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...extra,
});

/** The server as the browser meets it: /admin/me for the role, the plans, a plan's edit; every call recorded. */
const serve = (role: string, plans: () => Response, permissions: string[] | null = null) =>
  serveAdmin(
    role,
    (method, url, body) => {
      if (method === 'PATCH') return json(plan('premium-monthly', body as Partial<PlanRecord>));
      return url.pathname.endsWith('/admin/plans') ? plans() : undefined;
    },
    { permissions },
  );

afterEach(resetAdmin);

describe('subscriptions/pricing', () => {
  it('shows each plan and lets an owner change the price and features of one, with a reason', async () => {
    const calls = serve('owner', () =>
      json({
        plans: [
          plan('premium-monthly'),
          plan('platinum-monthly', { tier: 'platinum', name: 'Platinum', priceCents: 1999, active: false }),
        ],
      }),
    );
    startAdmin('/admin/subscriptions/pricing');
    expect(await screen.findByRole('heading', { name: 'Pricing', level: 1 })).toBeTruthy();
    expect(screen.getByText(/applies to new subscriptions only/)).toBeTruthy();
    const premium = await screen.findByRole('article', { name: 'Premium plan' });
    expect(within(premium).getByText('$9.99')).toBeTruthy();
    const platinum = screen.getByRole('article', { name: 'Platinum plan' });
    expect(within(platinum).getByText(/not on sale/i)).toBeTruthy();

    fireEvent.change(within(premium).getByLabelText('Price a month (USD)'), { target: { value: '12.99' } });
    fireEvent.change(within(premium).getByLabelText('Features, one a line'), {
      target: { value: 'Unlimited swipes\n\nSee who likes you\nRead receipts' },
    });
    fireEvent.change(within(premium).getByLabelText('Reason (kept in the audit log)'), { target: { value: 'December price' } });
    fireEvent.click(within(premium).getByRole('button', { name: 'Save Premium' }));
    await waitFor(() => {
      const patch = calls.find((c) => c.method === 'PATCH');
      expect(patch?.url.pathname).toBe('/api/v1/admin/plans/premium-monthly');
      expect(patch?.body).toEqual({
        priceCents: 1299,
        features: ['Unlimited swipes', 'See who likes you', 'Read receipts'],
        reason: 'December price',
      });
    });
  });

  it('is read-only without subscriptions.configure', async () => {
    const calls = serve('admin', () => json({ plans: [plan('premium-monthly')] }));
    startAdmin('/admin/subscriptions/pricing');
    const premium = await screen.findByRole('article', { name: 'Premium plan' });
    expect(within(premium).queryByRole('button')).toBeNull();
    expect(within(premium).getByRole('list', { name: 'Premium features' })).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('says so when there is no plan, and offers to try again when the list fails', async () => {
    serve('owner', () => json({ plans: [] }));
    startAdmin('/admin/subscriptions/pricing');
    expect(await screen.findByText('No plans yet')).toBeTruthy();
    cleanup();
    serve('owner', () => json({ error: 'x', message: 'Server down' }, 500));
    startAdmin('/admin/subscriptions/pricing');
    expect(await screen.findByText('Could not load the plans')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
  });
});
