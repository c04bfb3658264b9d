import type { Tier } from './tiers.ts';

// The tier tables live beside the rules that read them: one import for every tier question.
export { CRUISE_QUOTA } from './cruise.ts';
export { SUPER_PER_DAY } from './discovery.ts';
export { type OpenRelation, openOutcome, opensFree, opensLeft } from './game.ts';
export { effectiveTier, TIER_LIMITS, UNLIMITED } from './tiers.ts';

/** Upgrade texts of the Premium features that had none (spec section 6: "prompts name the required plan"). */
export const INCOGNITO_UPSELL = 'Browse invisibly with Premium membership...';
export const READ_RECEIPTS_UPSELL = 'See when your messages are read with Premium membership...';
/** Spec section 6, the privacy row of the tier table. */
export const PRIVACY_UPSELL = 'Privacy controls are available with Premium membership...';
export const VIDEO_CALL_UPSELL = 'Video calls are available with Premium membership...';

/**
 * The yes/no rows of the tier table (spec section 6). Video call follows that table (Premium),
 * not the plan list of section 9, which names it only under Platinum.
 */
export const TIER_FEATURES = {
  free: {
    whoLikesYou: false,
    advancedFilters: false,
    incognito: false,
    readReceipts: false,
    videoCall: false,
    messageBeforeMatch: false,
    privacyControls: false,
  },
  premium: {
    whoLikesYou: true,
    advancedFilters: true,
    incognito: true,
    readReceipts: true,
    videoCall: true,
    messageBeforeMatch: false,
    privacyControls: true,
  },
  platinum: {
    whoLikesYou: true,
    advancedFilters: true,
    incognito: true,
    readReceipts: true,
    videoCall: true,
    messageBeforeMatch: true,
    privacyControls: true,
  },
} as const satisfies Record<Tier, Record<string, boolean>>;
export type TierFeature = keyof (typeof TIER_FEATURES)['free'];

/** Refusal texts the server used to keep beside each check; the spec's own words are in `Messages`. */
export const AccessMessages = {
  cruisingDisabled: 'Cruising is turned off. Turn it on in Settings (it is not available in marry-only mode).',
  cruiseConsentRequired: 'Turn on location sharing to cruise.',
  cruiseLocationRequired: 'Share your location to start cruising.',
  notAnAdmin: 'User is not an admin',
  adminInactive: 'Admin account is inactive',
  cannotMessageSelf: "You can't message yourself.",
  notOffered: (choice: 'fuck' | 'marry') => `${choice === 'fuck' ? 'Fuck' : 'Marry'} is not offered in your app mode.`,
} as const;
