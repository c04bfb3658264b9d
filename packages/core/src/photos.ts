import { Messages } from './messages.ts';
import type { MissingField } from './profile.ts';
import { effectiveTier, nextPlanFor, TIER_LIMITS, type Tier } from './tiers.ts';

/** How uploaded photos are re-encoded (spec quality 80); re-encoding also drops their metadata. */
export const PHOTO_MAX_DIMENSION = 1600;
export const PHOTO_WEBP_QUALITY = 80;
/**
 * A profile photo as a grid cell shows it (docs/decisions/0006): cropped to the cell's 4:5 shape
 * at 2.5x a phone's 128 px cell, instead of the full photo (up to 1600 px) for every cell of the grid.
 */
export const PHOTO_THUMB = { width: 320, height: 400, quality: 72 } as const;
/** Formats we accept, as sharp names them after sniffing the bytes (heif covers HEIC and AVIF). */
export const ACCEPTED_PHOTO_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'heif'] as const;
/** Larger inputs are refused before decoding: a small file can decode to gigabytes. */
export const PHOTO_MAX_INPUT_PIXELS = 64_000_000;

/**
 * Whether a user with `count` photos may add one more (spec section 6 "Tier limits").
 * When refused, `message` is the upgrade text naming the plan that lifts the limit.
 */
export function photoAllowance(
  user: { subscriptionTier: Tier; hasLifetimePremium: boolean },
  count: number,
  tierLimit?: number,
): { allowed: true; limit: number } | { allowed: false; limit: number; message: string } {
  const tier = effectiveTier(user);
  const limit = tierLimit ?? TIER_LIMITS[tier].photos;
  if (count < limit) return { allowed: true, limit };
  const plan = nextPlanFor(tier);
  return { allowed: false, limit, message: plan ? Messages.photoLimit(limit, plan) : Messages.photoLimitMax(limit) };
}

/** What onboarding tells a person for each missing field (spec section 2 completeness). */
export const MISSING_FIELD_MESSAGES: Record<MissingField, string> = {
  displayName: 'Enter a display name.',
  age: 'Enter your age (18 or older).',
  bio: 'Write a short bio.',
  photo: 'Add at least one photo.',
  height: 'Enter your height.',
  position: 'Choose a position.',
  prompts: 'Answer at least two prompts.',
};
