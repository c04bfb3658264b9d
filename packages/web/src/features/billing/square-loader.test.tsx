import type { BillingSummary } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { loadSquareSdk, SQUARE_SDK_URL } from './cardForm.ts';

type SquareWindow = Window & { Square?: unknown };

const SQUARE: BillingSummary = {
  tier: 'free',
  customerId: null,
  subscription: null,
  cards: [],
  payments: [],
  stats: { totalSpent: 0, subscriptionsCount: 0, activeSubscriptions: 0, nextBillingAmount: null, nextBillingDate: null },
  provider: { kind: 'square', applicationId: 'sandbox-sq0idb-app', locationId: 'L1', environment: 'sandbox' },
};

/** A stand-in for Square's SDK global: what the form calls, recorded. */
function fakeSquare() {
  const seen: string[] = [];
  const sdk = {
    payments(app: string, location: string) {
      seen.push(`payments ${app} ${location}`);
      return {
        card: async () => ({
          attach: async (sel: string) => {
            seen.push(`attach ${sel}`);
          },
          tokenize: async () => ({ status: 'OK', token: 'cnon:from-square' }),
        }),
      };
    },
  };
  return { sdk, seen };
}

function openCheckout() {
  const user = me({ subscriptionTier: 'free', hasLifetimePremium: false, isBetaUser: false });
  signInStored(user);
  const calls = serve({
    'GET /api/v1/auth/session': session(user),
    'GET /api/v1/billing': () => json(200, SQUARE),
    'POST /api/v1/payments/subscription': () => json(402, { success: false, error: 'Payment failed' }),
  });
  start('/settings/payment?plan=premium-monthly');
  return calls;
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  delete (window as SquareWindow).Square;
  for (const s of document.querySelectorAll('script[src*="squarecdn"]')) s.remove();
});
beforeEach(() => localStorage.clear());

describe("Square's Web Payments loader", () => {
  it('polls every 100 ms and gives up after the 50th poll with initialization timeout', async () => {
    vi.useFakeTimers();
    const settled = vi.fn();
    loadSquareSdk('sandbox').then(settled, (e: Error) => settled(e.message));
    expect(document.querySelector(`script[src="${SQUARE_SDK_URL.sandbox}"]`)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(4_900);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(settled).toHaveBeenCalledWith('initialization timeout');
  });

  it('resolves on the poll after the SDK appears late', async () => {
    vi.useFakeTimers();
    const { sdk } = fakeSquare();
    const got = loadSquareSdk('production');
    expect(document.querySelector(`script[src="${SQUARE_SDK_URL.production}"]`)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(2_350);
    (window as SquareWindow).Square = sdk;
    await vi.advanceTimersByTimeAsync(100);
    await expect(got).resolves.toBe(sdk);
  });

  it('the checkout form initialises when the SDK arrives late, and its token is what is sent', async () => {
    const { sdk, seen } = fakeSquare();
    const calls = openCheckout();
    expect(await screen.findByText('Loading the secure card form…')).toBeTruthy();
    const pay = screen.getByRole('button', { name: 'Pay $9.99' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    setTimeout(() => {
      (window as SquareWindow).Square = sdk;
    }, 350);
    await waitFor(() => expect(pay.disabled).toBe(false), { timeout: 3_000 });
    expect(seen).toEqual(['payments sandbox-sq0idb-app L1', 'attach #square-card']);
    fireEvent.click(pay);
    await screen.findByText('Payment failed');
    expect(calls.find((c) => c.key === 'POST /api/v1/payments/subscription')?.body).toMatchObject({
      source_id: 'cnon:from-square',
    });
  });

  it("shows 'payments not initialized' when the SDK never appears, and the form stays shut", async () => {
    openCheckout();
    expect(await screen.findByText('payments not initialized', {}, { timeout: 25_000 })).toBeTruthy();
    expect(screen.getByText('The card form took too long to start. Try again.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Pay $9.99' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  }, 30_000);
});
