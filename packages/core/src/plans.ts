import { CRUISE_QUOTA } from './cruise.ts';
import { TIER_LIMITS, TIERS, type Tier, UNLIMITED } from './tiers.ts';

/**
 * The plans and the tier table (spec sections 6, 9), as the premium and payment screens and the
 * help's FAQ show them. Billing (a later issue) sells these plans; the prices are the spec's.
 */

export interface Plan {
  id: 'premium-monthly' | 'platinum-monthly';
  tier: Exclude<Tier, 'free'>;
  name: string;
  priceCents: number;
  currency: 'USD';
  billingFrequency: 'monthly';
  features: readonly string[];
}

export const PLANS: readonly Plan[] = [
  {
    id: 'premium-monthly',
    tier: 'premium',
    name: 'Premium',
    priceCents: 999,
    currency: 'USD',
    billingFrequency: 'monthly',
    features: [
      'Unlimited swipes',
      'See who likes you',
      'Advanced filters',
      'Read receipts',
      'Incognito browsing',
      'Up to 8 photos',
    ],
  },
  {
    id: 'platinum-monthly',
    tier: 'platinum',
    name: 'Platinum',
    priceCents: 1999,
    currency: 'USD',
    billingFrequency: 'monthly',
    features: [
      'Everything in Premium',
      'Profile boost',
      'Priority support',
      'Video calls',
      'Up to 20 photos',
      'Message before matching',
    ],
  },
];

/** '$9.99' for 999 cents: the plans are in US dollars. */
export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export const TIER_NAMES: Record<Tier, string> = { free: 'Free', premium: 'Premium', platinum: 'Platinum' };

const count = (n: number) => (n === UNLIMITED ? 'Unlimited' : String(n));
const cruise = (tier: Tier) => {
  const q = CRUISE_QUOTA[tier];
  if (q.sessions === UNLIMITED) return 'Unlimited';
  return `1 a ${q.period}`;
};
const yes = (tiers: readonly Tier[]) => Object.fromEntries(TIERS.map((t) => [t, tiers.includes(t)])) as Record<Tier, boolean>;

/** One row of the tier table: a number or text per tier, or whether the tier has it. */
export interface TierRow {
  feature: string;
  values: Record<Tier, string | boolean>;
}

/** The spec's tier table (section 6), its numbers read from the limits the server enforces. */
export const TIER_TABLE: readonly TierRow[] = [
  {
    feature: 'Profiles opened a day',
    values: Object.fromEntries(TIERS.map((t) => [t, count(TIER_LIMITS[t].clickableProfiles)])) as Record<Tier, string>,
  },
  {
    feature: 'Messages per day',
    values: Object.fromEntries(TIERS.map((t) => [t, count(TIER_LIMITS[t].messagesPerDay)])) as Record<Tier, string>,
  },
  {
    feature: 'Photos',
    values: Object.fromEntries(TIERS.map((t) => [t, count(TIER_LIMITS[t].photos)])) as Record<Tier, string>,
  },
  { feature: 'Cruise sessions (30 min)', values: Object.fromEntries(TIERS.map((t) => [t, cruise(t)])) as Record<Tier, string> },
  { feature: 'See who likes you', values: yes(['premium', 'platinum']) },
  { feature: 'Advanced filters', values: yes(['premium', 'platinum']) },
  { feature: 'Incognito browsing', values: yes(['premium', 'platinum']) },
  { feature: 'Read receipts', values: yes(['premium', 'platinum']) },
  { feature: 'Video calls', values: yes(['premium', 'platinum']) },
  {
    feature: 'Privacy controls',
    values: yes(['premium', 'platinum']),
  },
  { feature: 'Profile boost', values: yes(['platinum']) },
  { feature: 'Advanced privacy', values: yes(['platinum']) },
  { feature: 'Priority support', values: yes(['platinum']) },
];
