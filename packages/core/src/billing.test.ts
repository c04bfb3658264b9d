import { describe, expect, it } from 'vitest';
import { subscriptionGrants, tierFromSubscriptions } from './billing.ts';

const now = new Date('2026-06-01T00:00:00Z');
const later = new Date('2026-07-01T00:00:00Z');
const earlier = new Date('2026-05-01T00:00:00Z');
const sub = (o: Partial<Parameters<typeof subscriptionGrants>[0]> & { planId?: string } = {}) => ({
  planId: 'premium-monthly',
  status: 'active' as const,
  cancelAtPeriodEnd: false,
  currentPeriodEnd: later,
  ...o,
});

describe('tierFromSubscriptions', () => {
  it('counts a complimentary subscription like a paid active one until its end', () => {
    expect(tierFromSubscriptions([sub({ comp: true })], now)).toBe('premium');
    expect(tierFromSubscriptions([sub({ comp: true, planId: 'platinum-monthly' })], now)).toBe('platinum');
    expect(tierFromSubscriptions([sub({ comp: true, currentPeriodEnd: earlier })], now)).toBe('free');
    expect(tierFromSubscriptions([sub({ comp: true, status: 'canceled' })], now)).toBe('free');
  });

  it('takes the highest of paid and complimentary', () => {
    expect(tierFromSubscriptions([sub({ comp: true }), sub({ planId: 'platinum-monthly' })], now)).toBe('platinum');
    expect(tierFromSubscriptions([sub({ comp: true, planId: 'platinum-monthly' }), sub()], now)).toBe('platinum');
    expect(tierFromSubscriptions([sub({ comp: true }), sub({ status: 'canceled', planId: 'platinum-monthly' })], now)).toBe(
      'premium',
    );
  });

  it('keeps a paid subscription past its end while the renewal is pending, not a complimentary one', () => {
    expect(subscriptionGrants(sub({ currentPeriodEnd: earlier }), now)).toBe(true);
    expect(subscriptionGrants(sub({ currentPeriodEnd: earlier, comp: true }), now)).toBe(false);
  });
});
