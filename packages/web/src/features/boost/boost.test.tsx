import { type BillingSummary, BoostMessages, type BoostStatus } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

const GRID = 'GET /api/v1/grid?limit=60&ageMin=18&ageMax=50&maxDistance=50&showMe=everyone';
const EMPTY_GRID = { items: [], nextCursor: null, clickableLimit: -1, opensLeft: -1, hasLocation: true };
// The server's clock is a day off the phone's: the countdown runs by the server's.
const SERVER_NOW = new Date(Date.now() - 86_400_000);
const status = (over: Partial<BoostStatus> = {}): BoostStatus => ({
  available: true,
  upsell: null,
  boost: null,
  includedPerDay: 1,
  includedLeftToday: 1,
  credits: 0,
  priceCents: 299,
  durationMinutes: 30,
  serverTime: SERVER_NOW.toISOString(),
  ...over,
});
const running = (leftMs: number, views: number) =>
  status({
    includedLeftToday: 0,
    boost: {
      startedAt: new Date(SERVER_NOW.getTime() - 60_000).toISOString(),
      endsAt: new Date(SERVER_NOW.getTime() + leftMs).toISOString(),
      active: true,
      source: 'included',
      views,
    },
  });
const BILLING: BillingSummary = {
  tier: 'platinum',
  customerId: null,
  subscription: null,
  cards: [],
  payments: [],
  stats: { totalSpent: 0, subscriptionsCount: 0, activeSubscriptions: 0, nextBillingAmount: null, nextBillingDate: null },
  provider: { kind: 'sandbox', applicationId: null, locationId: null, environment: 'sandbox' },
};

function open(path: string, tier: 'free' | 'premium' | 'platinum', routes: Parameters<typeof serve>[0] = {}) {
  const user = me({ subscriptionTier: tier });
  signInStored(user);
  const calls = serve({
    'GET /api/v1/auth/session': session(user),
    'GET /api/v1/billing': () => json(200, { ...BILLING, tier }),
    [GRID]: () => json(200, EMPTY_GRID),
    ...routes,
  });
  start(path);
  return calls;
}

describe('Boost', () => {
  it("counts down a running boost by the server's clock and says how many men saw him", async () => {
    open('/settings/premium', 'platinum', { 'GET /api/v1/boost': () => json(200, running(24 * 60_000 + 13_500, 7)) });
    const timer = await screen.findByRole('timer');
    expect(timer.textContent).toMatch(/^Boosted · 24:1[34] left$/);
    expect(screen.getByText('7 men saw you')).toBeTruthy();
    // It ticks.
    const first = timer.textContent;
    await waitFor(() => expect(screen.getByRole('timer').textContent).not.toBe(first), { timeout: 2500 });
    expect(screen.getByRole('timer').textContent).toMatch(/^Boosted · 24:1[23] left$/);
  });

  it('starts the included boost, and once none is left leads to buying one with the sandbox card', async () => {
    let current = status();
    const calls = open('/settings/premium', 'platinum', {
      'GET /api/v1/boost': () => json(200, current),
      'POST /api/v1/boost': () => {
        current = running(30 * 60_000, 0);
        return json(200, current);
      },
      'POST /api/v1/boost/purchase': () => json(200, { success: true, payment_id: 'p1' }),
    });
    expect(await screen.findByText('1 included boost left today')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Boost now' }));
    expect((await screen.findByRole('timer')).textContent).toMatch(/^Boosted · (30:00|29:59) left$/);
    expect(screen.getByText('No one has seen you yet')).toBeTruthy();
    cleanup();

    current = status({ includedLeftToday: 0 });
    open('/settings/premium', 'platinum', { 'GET /api/v1/boost': () => json(200, current) });
    expect(await screen.findByText(BoostMessages.noneLeft)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Boost now' })).toBeNull();
    const buy = screen.getByRole('link', { name: 'Buy an extra boost ($2.99)' });
    expect(buy.getAttribute('href')).toBe('/settings/payment?extra=boost');
    cleanup();

    const paid = open('/settings/payment?extra=boost', 'platinum', {
      'GET /api/v1/boost': () => json(200, status({ includedLeftToday: 0, credits: 1 })),
      'POST /api/v1/boost/purchase': () => json(200, { success: true, payment_id: 'p1' }),
    });
    expect(await screen.findByText('Checkout: an extra boost')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4111 1111 1111 1111' } });
    fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/39' } });
    fireEvent.change(screen.getByLabelText('Security code'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay $2.99' }));
    // Back on the Boost block, the bought one counted.
    expect(await screen.findByText('0 included boosts left today, 1 extra bought')).toBeTruthy();
    const sent = paid.find((c) => c.key === 'POST /api/v1/boost/purchase');
    expect(sent?.body).toMatchObject({ source_id: 'cnon:card-nonce-ok' });
    expect(JSON.stringify(sent?.body)).not.toContain('4111');
    expect(calls.some((c) => c.key === 'POST /api/v1/boost')).toBe(true);
  });

  it('shows the countdown on the grid for Platinum, and the Platinum upgrade prompt to Premium and Free', async () => {
    open('/grid', 'platinum', { 'GET /api/v1/boost': () => json(200, running(5 * 60_000, 2)) });
    const chip = await screen.findByRole('link', { name: /^Boosted · (5:00|4:59|04:59|05:00) left$/ });
    expect(chip.getAttribute('href')).toBe('/settings/premium#boost');
    cleanup();

    for (const tier of ['premium', 'free'] as const) {
      const calls = open('/grid', tier);
      fireEvent.click(await screen.findByRole('button', { name: 'Boost' }));
      const sheet = await screen.findByRole('dialog');
      expect(within(sheet).getByText(BoostMessages.upsell)).toBeTruthy();
      expect(BoostMessages.upsell).toContain('Platinum');
      // No boost is asked of the server for a plan without it.
      expect(calls.some((c) => c.key.startsWith('GET /api/v1/boost'))).toBe(false);
      cleanup();
    }
    open('/settings/premium', 'premium');
    expect(await screen.findByText(BoostMessages.upsell)).toBeTruthy();
  });
});
