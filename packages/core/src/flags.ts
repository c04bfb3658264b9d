import { z } from 'zod';
import { BoostMessages } from './boost.ts';
import { CRUISE_QUOTA } from './cruise.ts';
import { SUPER_PER_DAY } from './discovery.ts';
import { TIER_LIMITS, TIERS, type Tier, UNLIMITED } from './tiers.ts';

/**
 * Feature flags (spec section 3 "Feature flag": id, isEnabled, isPremium, limit; sections 5, 6).
 * The store on the server holds one row per feature, seeded from the tier tables below; every
 * tier rule reads its limit or its yes/no from the actor's `rules`, built here from those rows.
 * FMK adds two fields the spec's flag lacks, because its tiers are three: `minTier` (Platinum-only
 * features) and `tierLimits` (a counted feature's allowance per tier, -1 unlimited).
 */

/** Counted features: an allowance per tier. */
export const COUNTED_FEATURES = [
  'clickableProfiles',
  'messagesPerDay',
  'photos',
  'supersPerDay',
  'cruiseSessions',
  'boostsPerDay',
] as const;
export type CountedFeature = (typeof COUNTED_FEATURES)[number];
/** Yes/no features of the tier table. */
export const GATED_FEATURES = [
  'whoLikesYou',
  'advancedFilters',
  'incognito',
  'readReceipts',
  'videoCall',
  'privacyControls',
  'messageBeforeMatch',
  'boost',
  'advancedPrivacy',
  'prioritySupport',
] as const;
export type GatedFeature = (typeof GATED_FEATURES)[number];
export type FeatureId = CountedFeature | GatedFeature;
export const FEATURE_IDS: readonly FeatureId[] = [...COUNTED_FEATURES, ...GATED_FEATURES];

export const featureFlagSchema = z.object({
  id: z.string().min(1).max(64),
  isEnabled: z.boolean(),
  isPremium: z.boolean(),
  /** A free user's daily uses (spec section 6): null, 0 or -1 mean unlimited. */
  limit: z.number().int().min(-1).nullable(),
  minTier: z.enum(TIERS),
  tierLimits: z.record(z.enum(TIERS), z.number().int().min(-1)).nullable(),
});
export type FeatureFlag = z.infer<typeof featureFlagSchema>;

const PLATINUM_ONLY: readonly GatedFeature[] = ['messageBeforeMatch', 'boost', 'advancedPrivacy', 'prioritySupport'];

const counted = (id: CountedFeature, limits: Record<Tier, number>): FeatureFlag => ({
  id,
  isEnabled: true,
  isPremium: false,
  limit: null,
  minTier: 'free',
  tierLimits: { ...limits },
});

/** The seed of the flag store: the spec's tier table (section 6), as core has always held it. */
export const DEFAULT_FLAGS: readonly FeatureFlag[] = [
  counted('clickableProfiles', {
    free: TIER_LIMITS.free.clickableProfiles,
    premium: TIER_LIMITS.premium.clickableProfiles,
    platinum: TIER_LIMITS.platinum.clickableProfiles,
  }),
  counted('messagesPerDay', {
    free: TIER_LIMITS.free.messagesPerDay,
    premium: TIER_LIMITS.premium.messagesPerDay,
    platinum: TIER_LIMITS.platinum.messagesPerDay,
  }),
  counted('photos', {
    free: TIER_LIMITS.free.photos,
    premium: TIER_LIMITS.premium.photos,
    platinum: TIER_LIMITS.platinum.photos,
  }),
  counted('supersPerDay', { ...SUPER_PER_DAY }),
  counted('cruiseSessions', {
    free: CRUISE_QUOTA.free.sessions,
    premium: CRUISE_QUOTA.premium.sessions,
    platinum: CRUISE_QUOTA.platinum.sessions,
  }),
  // Boosts included a UTC day; the `boost` flag below decides who may boost at all (Platinum).
  counted('boostsPerDay', { free: 0, premium: 0, platinum: 1 }),
  ...GATED_FEATURES.map(
    (id): FeatureFlag => ({
      id,
      isEnabled: true,
      isPremium: true,
      limit: null,
      minTier: PLATINUM_ONLY.includes(id) ? 'platinum' : 'premium',
      tierLimits: null,
    }),
  ),
];

/** What one tier may do, read from the flag store: what `can` and the services read. */
export interface TierRules {
  limits: Record<CountedFeature, number>;
  has: Record<GatedFeature, boolean>;
}

const RANK: Record<Tier, number> = { free: 0, premium: 1, platinum: 2 };
export const tierAtLeast = (tier: Tier, min: Tier): boolean => RANK[tier] >= RANK[min];

/** A limit value: -1, 0 and null all mean unlimited for the daily usage of spec section 6. */
export const isUnlimitedUsage = (limit: number | null): boolean => limit === null || limit === 0 || limit === UNLIMITED;

/** The larger of two allowances, -1 (unlimited) above every number. */
const larger = (a: number, b: number): number => (a === UNLIMITED || b === UNLIMITED ? UNLIMITED : Math.max(a, b));

/**
 * A tier's rules from the flags. A missing or disabled counted feature falls back to nothing
 * allowed (0) so a broken store fails closed; a disabled yes/no feature is off for everyone.
 *
 * The two fields staff edit (spec section 3) drive the rules too, not only the daily-use check:
 * - `isPremium` on a yes/no feature: off, every tier has it; on, the tier needs `minTier`.
 *   On a counted feature: on, a free user gets none of it.
 * - `limit` on a counted feature is the free tier's allowance when set (null: the seeded
 *   per-tier value; 0 and -1: unlimited, the spec's words for a daily limit). A paid tier never
 *   gets less than the free one, so a higher tier never loses what a lower one has.
 */
export function rulesFor(flags: readonly FeatureFlag[], tier: Tier): TierRules {
  const byId = new Map(flags.map((f) => [f.id, f]));
  const limits = {} as Record<CountedFeature, number>;
  for (const id of COUNTED_FEATURES) {
    const f = byId.get(id);
    if (!f?.isEnabled) {
      limits[id] = 0;
      continue;
    }
    const seeded = (t: Tier) => f.tierLimits?.[t] ?? 0;
    const free = f.isPremium ? 0 : f.limit === null ? seeded('free') : isUnlimitedUsage(f.limit) ? UNLIMITED : f.limit;
    limits[id] = tier === 'free' ? free : larger(seeded(tier), free);
  }
  const has = {} as Record<GatedFeature, boolean>;
  for (const id of GATED_FEATURES) {
    const f = byId.get(id);
    has[id] = Boolean(f?.isEnabled && (!f.isPremium || tierAtLeast(tier, f.minTier === 'free' ? 'premium' : f.minTier)));
  }
  return { limits, has };
}

const DEFAULT_RULES: Record<Tier, TierRules> = {
  free: rulesFor(DEFAULT_FLAGS, 'free'),
  premium: rulesFor(DEFAULT_FLAGS, 'premium'),
  platinum: rulesFor(DEFAULT_FLAGS, 'platinum'),
};

/** The seeded rules of a tier, for callers that hold no store (pure tests, the web's table). */
export const defaultRules = (tier: Tier): TierRules => DEFAULT_RULES[tier];

export type FeatureDecision =
  | { allowed: true; remaining: number | null }
  | { allowed: false; reason: 'not_found' | 'disabled' | 'premium_required' | 'limit_reached'; message: string };

/** The upgrade text of a feature (spec section 6: the prompt names the plan). */
export function featureUpsell(flag: Pick<FeatureFlag, 'id' | 'minTier'>): string {
  const plan = flag.minTier === 'platinum' ? 'Platinum' : 'Premium';
  if (flag.id === 'boost') return BoostMessages.upsell;
  if (flag.id === 'advancedFilters') return 'Advanced filters are available with Premium membership...';
  return `This feature is available with ${plan} membership...`;
}

/**
 * Feature access (spec section 5): the flag must exist and be enabled; a premium feature needs
 * the tier (or staff); a free user's daily uses are counted against `limit` (section 6), while
 * premium, platinum and staff are unlimited.
 */
export function featureAccess(
  flag: FeatureFlag | undefined,
  who: { tier: Tier; staff: boolean },
  usedToday: number,
): FeatureDecision {
  if (!flag) return { allowed: false, reason: 'not_found', message: 'Feature not found' };
  if (!flag.isEnabled) return { allowed: false, reason: 'disabled', message: 'This feature is turned off.' };
  if (flag.isPremium && !who.staff && !tierAtLeast(who.tier, flag.minTier === 'free' ? 'premium' : flag.minTier)) {
    return { allowed: false, reason: 'premium_required', message: featureUpsell(flag) };
  }
  if (who.staff || who.tier !== 'free' || isUnlimitedUsage(flag.limit)) return { allowed: true, remaining: null };
  const limit = flag.limit as number;
  if (usedToday >= limit) {
    return {
      allowed: false,
      reason: 'limit_reached',
      message: `You've used today's ${limit}. Get more with Premium membership...`,
    };
  }
  return { allowed: true, remaining: limit - usedToday - 1 };
}

export const featureUseSchema = z.object({ feature: z.string(), allowed: z.boolean(), remaining: z.number().int().nullable() });
export type FeatureUse = z.infer<typeof featureUseSchema>;
export const featureFlagsSchema = z.object({ flags: z.array(featureFlagSchema) });
export const featureFlagPatch = featureFlagSchema.pick({ isEnabled: true, isPremium: true, limit: true }).partial();
