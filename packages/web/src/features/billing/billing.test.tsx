import type { BillingSummary, PlanRecord } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { sandboxTokenize } from './cardForm.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
beforeEach(() => localStorage.clear());

const SANDBOX = { kind: 'sandbox', applicationId: null, locationId: null, environment: 'sandbox' } as const;
const EMPTY: BillingSummary = {
  tier: 'free',
  customerId: null,
  subscription: null,
  cards: [],
  payments: [],
  stats: { totalSpent: 0, subscriptionsCount: 0, activeSubscriptions: 0, nextBillingAmount: null, nextBillingDate: null },
  provider: SANDBOX,
};

/** The plans as GET /plans serves them: the spec's, unless a test has staff change them. */
const record = (over: Partial<PlanRecord> & Pick<PlanRecord, 'id' | 'tier' | 'name' | 'priceCents'>): PlanRecord => ({
  currency: 'USD',
  interval: 'monthly',
  features: [],
  active: true,
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});
const SPEC_PLANS: PlanRecord[] = [
  record({
    id: 'premium-monthly',
    tier: 'premium',
    name: 'Premium',
    priceCents: 999,
    features: [
      'Unlimited swipes',
      'See who likes you',
      'Advanced filters',
      'Read receipts',
      'Incognito browsing',
      'Up to 8 photos',
    ],
  }),
  record({
    id: 'platinum-monthly',
    tier: 'platinum',
    name: 'Platinum',
    priceCents: 1999,
    features: [
      'Everything in Premium',
      'Profile boost',
      'Priority support',
      'Video calls',
      'Up to 20 photos',
      'Message before matching',
    ],
  }),
];

function open(path: string, over: Parameters<typeof me>[0], billing: BillingSummary = EMPTY, more = {}) {
  const user = me(over);
  signInStored(user);
  const calls = serve({
    'GET /api/v1/auth/session': session(user),
    'GET /api/v1/billing': () => json(200, billing),
    'GET /api/v1/plans': () => json(200, { plans: SPEC_PLANS }),
    ...more,
  });
  start(path);
  return calls;
}

describe('/settings/premium', () => {
  it("shows both plans with the spec's prices and features, the table, and leads a free user to checkout", async () => {
    open('/settings/premium', { subscriptionTier: 'free', hasLifetimePremium: false, isBetaUser: false });
    expect(await screen.findByText('Your plan: Free')).toBeTruthy();
    // The plans come from GET /plans, as staff set them.
    const premium = await screen.findByRole('list', { name: 'Premium includes' });
    expect(within(premium).getByText('See who likes you')).toBeTruthy();
    expect(within(premium).getByText('Up to 8 photos')).toBeTruthy();
    const platinum = screen.getByRole('list', { name: 'Platinum includes' });
    expect(within(platinum).getByText('Message before matching')).toBeTruthy();
    expect(screen.getByText('$9.99')).toBeTruthy();
    expect(screen.getByText('$19.99')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'What each plan includes' });
    expect(within(table).getByRole('columnheader', { name: /Free.*Your plan/ })).toBeTruthy();
    expect(within(table).getAllByRole('row').length).toBeGreaterThan(10);
    expect((await screen.findByRole('link', { name: 'Choose Premium' })).getAttribute('href')).toBe(
      '/settings/payment?plan=premium-monthly',
    );
    expect(screen.getByRole('link', { name: 'Choose Platinum' }).getAttribute('href')).toBe(
      '/settings/payment?plan=platinum-monthly',
    );
  });

  it('says honestly when Premium is a lifetime beta gift, and offers only Platinum', async () => {
    open(
      '/settings/premium',
      { subscriptionTier: 'free', hasLifetimePremium: true, isBetaUser: true },
      { ...EMPTY, tier: 'premium' },
    );
    expect(await screen.findByText('Your plan: Premium')).toBeTruthy();
    expect(screen.getAllByText(/Premium for life/).length).toBeGreaterThan(0);
    expect(await screen.findByRole('link', { name: 'Choose Platinum' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Choose Premium' })).toBeNull();
  });

  it('shows the plans as staff set them (GET /plans), and a subscriber keeps the price he subscribed at', async () => {
    const raised = [
      { ...SPEC_PLANS[0]!, priceCents: 1299, features: ['Unlimited swipes', 'See who likes you, live'] },
      SPEC_PLANS[1]!,
    ];
    const sub = {
      id: 's1',
      planId: 'premium-monthly',
      planName: 'Premium',
      status: 'active' as const,
      currentPeriodStart: '2026-11-01T00:00:00.000Z',
      currentPeriodEnd: '2026-12-01T00:00:00.000Z',
      nextBillingDate: '2026-12-01T00:00:00.000Z',
      amount: 999,
      currency: 'USD',
      paymentMethodId: 'c1',
      createdAt: '2026-11-01T00:00:00.000Z',
      cancelAtPeriodEnd: false,
      canceledAt: null,
      comp: false,
    };
    open(
      '/settings/premium',
      { subscriptionTier: 'premium', hasLifetimePremium: false, isBetaUser: false },
      { ...EMPTY, tier: 'premium', subscription: sub },
      { 'GET /api/v1/plans': () => json(200, { plans: raised }) },
    );
    const premium = await screen.findByRole('region', { name: 'Premium' });
    expect(within(premium).getByText('$12.99')).toBeTruthy();
    expect(within(premium).getByText('See who likes you, live')).toBeTruthy();
    expect(within(premium).queryByText('Advanced filters')).toBeNull();
    expect(await within(premium).findByText('You keep $9.99 a month, the price you subscribed at.')).toBeTruthy();
    expect(screen.queryByText('$9.99')).toBeNull();
    // Platinum is an upgrade from what he pays.
    expect(await screen.findByRole('button', { name: 'Switch to Platinum' })).toBeTruthy();
  });

  it('offers to try again when the plans cannot be read, and says so when none is on sale', async () => {
    open('/settings/premium', { subscriptionTier: 'free', hasLifetimePremium: false, isBetaUser: false }, EMPTY, {
      'GET /api/v1/plans': () => json(500, { error: 'x', message: 'down' }),
    });
    expect(await screen.findByText('Could not load the plans')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
    cleanup();
    open('/settings/premium', { subscriptionTier: 'free', hasLifetimePremium: false, isBetaUser: false }, EMPTY, {
      'GET /api/v1/plans': () => json(200, { plans: [] }),
    });
    expect(await screen.findByText(/No plan is on sale right now/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Choose/ })).toBeNull();
  });
});

describe('/settings/payment', () => {
  it('shows no saved cards, no payments and the current tier', async () => {
    open('/settings/payment', { subscriptionTier: 'free', hasLifetimePremium: false, isBetaUser: false });
    expect(await screen.findByText('No saved cards')).toBeTruthy();
    expect(screen.getByText('No payments yet.')).toBeTruthy();
    expect(screen.getByText('Free')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Compare plans' }).getAttribute('href')).toBe('/settings/premium');
  });

  it('checks out with a sandbox test card: only the nonce is sent, never the number', async () => {
    const calls = open(
      '/settings/payment?plan=premium-monthly',
      { subscriptionTier: 'free', hasLifetimePremium: false, isBetaUser: false },
      EMPTY,
      {
        'POST /api/v1/payments/subscription': () => json(402, { success: false, error: 'Payment failed' }),
      },
    );
    expect(await screen.findByText('Checkout: Premium')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4000 0000 0000 0002' } });
    fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/39' } });
    fireEvent.change(screen.getByLabelText('Security code'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay $9.99' }));
    expect(await screen.findByText('Payment failed')).toBeTruthy();
    const sent = calls.find((c) => c.key === 'POST /api/v1/payments/subscription');
    expect(sent?.body).toMatchObject({
      source_id: 'cnon:card-nonce-declined',
      subscription_plan: 'premium-monthly',
      amount_money: { amount: 999, currency: 'USD' },
    });
    expect(JSON.stringify(sent?.body)).not.toContain('4000');
  });

  it('lists cards, payments and the stats of a subscriber', async () => {
    const sub = {
      id: 's1',
      planId: 'premium-monthly',
      planName: 'Premium',
      status: 'active' as const,
      currentPeriodStart: '2026-06-01T00:00:00.000Z',
      currentPeriodEnd: '2026-07-01T00:00:00.000Z',
      nextBillingDate: '2026-07-01T00:00:00.000Z',
      amount: 999,
      currency: 'USD',
      paymentMethodId: 'c1',
      createdAt: '2026-06-01T00:00:00.000Z',
      cancelAtPeriodEnd: false,
      canceledAt: null,
      comp: false,
    };
    open(
      '/settings/payment',
      { subscriptionTier: 'premium', hasLifetimePremium: false, isBetaUser: false },
      {
        ...EMPTY,
        tier: 'premium',
        subscription: sub,
        cards: [
          {
            id: 'c1',
            type: 'card',
            brand: 'VISA',
            last4: '1111',
            expiryMonth: 12,
            expiryYear: 2030,
            isDefault: true,
            createdAt: sub.createdAt,
          },
        ],
        payments: [
          {
            id: 'p1',
            kind: 'subscription',
            status: 'completed',
            amount: 999,
            currency: 'USD',
            note: 'Premium',
            createdAt: sub.createdAt,
          },
          {
            id: 'r1',
            kind: 'refund',
            status: 'completed',
            amount: 500,
            currency: 'USD',
            note: 'Premium',
            createdAt: '2026-06-03T00:00:00.000Z',
          },
        ],
        stats: {
          totalSpent: 999,
          subscriptionsCount: 1,
          activeSubscriptions: 1,
          nextBillingAmount: 999,
          nextBillingDate: sub.nextBillingDate,
        },
      },
    );
    expect(await screen.findByText('VISA •••• 1111')).toBeTruthy();
    expect(screen.getByText('Renews on Jul 1, 2026 for $9.99.')).toBeTruthy();
    expect(screen.getByText('$9.99 on Jul 1, 2026')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel at the end of this period' })).toBeTruthy();
    const history = await screen.findByRole('list', { name: 'Payments' });
    // A refund staff made shows as its own line, what came back.
    const refund = within(history).getByText('Refund: Premium').closest('li') as HTMLElement;
    expect(within(refund).getByText('−$5.00')).toBeTruthy();
    expect(within(refund).getByText('Refunded')).toBeTruthy();
    expect(within(refund).getByText('Jun 3, 2026')).toBeTruthy();
  });
});

describe('the sandbox tokenizer', () => {
  it("turns Square's test cards into their nonces and refuses anything else", () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(sandboxTokenize({ number: '4111 1111 1111 1111', expiry: '12/30', cvc: '123' }, now)).toEqual({
      ok: true,
      token: 'cnon:card-nonce-ok',
    });
    expect(sandboxTokenize({ number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' }, now).ok).toBe(false);
    expect(sandboxTokenize({ number: '4111111111111111', expiry: '01/20', cvc: '123' }, now)).toEqual({
      ok: false,
      error: 'This card has expired.',
    });
  });
});
