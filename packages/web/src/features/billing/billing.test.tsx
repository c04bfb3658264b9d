import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => localStorage.clear());

function open(path: string, over: Parameters<typeof me>[0]) {
  const user = me(over);
  signInStored(user);
  serve({ 'GET /api/v1/auth/session': session(user) });
  start(path);
}

describe('/settings/premium', () => {
  it("shows both plans with the spec's prices and features, the table, and the user's plan, with nothing to buy", async () => {
    open('/settings/premium', { subscriptionTier: 'free', hasLifetimePremium: false, isBetaUser: false });
    expect(await screen.findByText('Your plan: Free')).toBeTruthy();
    const premium = screen.getByRole('list', { name: 'Premium includes' });
    expect(within(premium).getByText('See who likes you')).toBeTruthy();
    expect(within(premium).getByText('Up to 8 photos')).toBeTruthy();
    const platinum = screen.getByRole('list', { name: 'Platinum includes' });
    expect(within(platinum).getByText('Message before matching')).toBeTruthy();
    expect(screen.getByText('$9.99')).toBeTruthy();
    expect(screen.getByText('$19.99')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'What each plan includes' });
    expect(within(table).getByRole('columnheader', { name: /Free.*Your plan/ })).toBeTruthy();
    expect(within(table).getAllByRole('row').length).toBeGreaterThan(10);
    // Read-only until billing: no button offers a purchase.
    expect(screen.queryByRole('button', { name: /buy|subscribe|upgrade|billing/i })).toBeNull();
  });

  it('says honestly when Premium is a lifetime beta gift', async () => {
    open('/settings/premium', { subscriptionTier: 'free', hasLifetimePremium: true, isBetaUser: true });
    expect(await screen.findByText('Your plan: Premium')).toBeTruthy();
    expect(screen.getAllByText(/Premium for life/).length).toBeGreaterThan(0);
  });
});

describe('/settings/payment', () => {
  it('shows no saved cards, no payments and the current tier', async () => {
    open('/settings/payment', { subscriptionTier: 'platinum', hasLifetimePremium: false, isBetaUser: false });
    expect(await screen.findByText('No saved cards')).toBeTruthy();
    expect(screen.getByText('No payments yet.')).toBeTruthy();
    expect(screen.getByText('Platinum')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Compare plans' }).getAttribute('href')).toBe('/settings/premium');
  });
});
