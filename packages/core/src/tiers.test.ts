import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveTier, isTier, nextPlanFor, TIER_LIMITS, TIERS, UNLIMITED } from './tiers.ts';

describe('TIER_LIMITS', () => {
  it('matches spec section 6 (free / premium / platinum, -1 = unlimited)', () => {
    expect(UNLIMITED).toBe(-1);
    expect(TIER_LIMITS.free).toEqual({ clickableProfiles: 5, messagesPerDay: 5, photos: 3 });
    expect(TIER_LIMITS.premium).toEqual({ clickableProfiles: 25, messagesPerDay: 50, photos: 8 });
    expect(TIER_LIMITS.platinum).toEqual({ clickableProfiles: -1, messagesPerDay: -1, photos: 20 });
  });

  it('never gets stricter as the tier rises', () => {
    const rank = (n: number) => (n === UNLIMITED ? Number.POSITIVE_INFINITY : n);
    for (const key of ['clickableProfiles', 'messagesPerDay', 'photos'] as const) {
      expect(rank(TIER_LIMITS.premium[key])).toBeGreaterThanOrEqual(rank(TIER_LIMITS.free[key]));
      expect(rank(TIER_LIMITS.platinum[key])).toBeGreaterThanOrEqual(rank(TIER_LIMITS.premium[key]));
    }
  });
});

describe('isTier', () => {
  it('accepts exactly the three tiers', () => {
    for (const t of TIERS) expect(isTier(t)).toBe(true);
    for (const v of ['Free', 'PREMIUM', 'gold', '', null, undefined, 1, {}]) expect(isTier(v)).toBe(false);
  });
});

describe('effectiveTier', () => {
  it('lifts a lifetime-premium user on free to premium', () => {
    expect(effectiveTier({ subscriptionTier: 'free', hasLifetimePremium: true })).toBe('premium');
  });

  it('leaves paid tiers as they are', () => {
    expect(effectiveTier({ subscriptionTier: 'premium', hasLifetimePremium: true })).toBe('premium');
    expect(effectiveTier({ subscriptionTier: 'platinum', hasLifetimePremium: true })).toBe('platinum');
    expect(effectiveTier({ subscriptionTier: 'premium', hasLifetimePremium: false })).toBe('premium');
    expect(effectiveTier({ subscriptionTier: 'platinum', hasLifetimePremium: false })).toBe('platinum');
  });

  it('leaves a free user without lifetime premium on free', () => {
    expect(effectiveTier({ subscriptionTier: 'free', hasLifetimePremium: false })).toBe('free');
  });

  it('is never free for lifetime premium, and never lowers a tier (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TIERS), fc.boolean(), (subscriptionTier, hasLifetimePremium) => {
        const t = effectiveTier({ subscriptionTier, hasLifetimePremium });
        if (hasLifetimePremium) expect(t).not.toBe('free');
        expect(TIERS.indexOf(t)).toBeGreaterThanOrEqual(TIERS.indexOf(subscriptionTier));
      }),
    );
  });
});

describe('nextPlanFor', () => {
  it('names the plan that lifts a limit', () => {
    expect(nextPlanFor('free')).toBe('Premium');
    expect(nextPlanFor('premium')).toBe('Platinum');
    expect(nextPlanFor('platinum')).toBeNull();
  });
});
