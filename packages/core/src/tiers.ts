/** Tiers and their limits (spec section 6). -1 means unlimited (spec section 9). */
export const TIERS = ['free', 'premium', 'platinum'] as const;
export type Tier = (typeof TIERS)[number];
export const STAFF_ROLES = ['owner', 'super_admin', 'admin', 'moderator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const UNLIMITED = -1;

export const TIER_LIMITS = {
  free: { clickableProfiles: 5, messagesPerDay: 5, photos: 3 },
  premium: { clickableProfiles: 25, messagesPerDay: 50, photos: 8 },
  platinum: { clickableProfiles: UNLIMITED, messagesPerDay: UNLIMITED, photos: 20 },
} as const satisfies Record<Tier, Record<string, number>>;

export function isTier(v: unknown): v is Tier {
  return typeof v === 'string' && (TIERS as readonly string[]).includes(v);
}

/**
 * The effective tier. A beta user with lifetime premium is at least premium and never free
 * (spec section 4 "Tiers").
 */
export function effectiveTier(user: { subscriptionTier: Tier; hasLifetimePremium: boolean }): Tier {
  if (user.hasLifetimePremium && user.subscriptionTier === 'free') return 'premium';
  return user.subscriptionTier;
}

/** The plan that lifts a limit, for the upgrade prompt. */
export function nextPlanFor(tier: Tier): 'Premium' | 'Platinum' | null {
  return tier === 'free' ? 'Premium' : tier === 'premium' ? 'Platinum' : null;
}
