import { ALL_PERMISSIONS, type Permission, type StaffRecord } from './admin.ts';
import type { TierRules } from './flags.ts';
import type { AppMode, ModeVisibility, ProfileMode } from './profile.ts';
import type { MessagesFrom, ProfileVisibility, StoredSettings } from './settings.ts';
import type { Tier } from './tiers.ts';

// The words of the access rules (access.ts): who asks, about whom, to do what, and the answer.

/** A staff record as the rules need it: the role, whether it is active, and its explicit permission list. */
export interface StaffGrant extends StaffRecord {
  /** The record's explicit list (spec section 6: overrides the role's defaults); null for the defaults. */
  permissions: readonly string[] | null;
}

/** The signed-in user asking. */
export interface Actor {
  id: string;
  /** The effective tier (`effectiveTier`: lifetime premium is never free). */
  tier: Tier;
  staff: StaffGrant | null;
  /**
   * He confirmed a phone number by a texted code (phone.ts), what the verified badge shows. Read
   * by the other man's communication safety (blockUnverifiedUsers, requirePhoneVerification).
   */
  verified: boolean;
  /** onboarding_complete: until then onboarding is his only screen (spec section 2). */
  profileComplete: boolean;
  isActive: boolean;
  currentMode: ProfileMode;
  settings: {
    appMode: AppMode;
    cruisingEnabled: boolean;
    healthEnabled: boolean;
    activityTrackingEnabled: boolean;
    locationSharingConsent: boolean;
    /** He has shared a location that is still active. */
    hasLocation: boolean;
  };
  /**
   * What he has used of his tier's limits, as read for this decision: distinct profiles opened
   * this UTC day, messages sent this UTC day, super selections this UTC day, cruise sessions
   * started in the current (rolled-over) period, photos on his profile.
   */
  usage: { opensToday: number; messagesToday: number; supersToday: number; cruiseStarts: number; photos: number };
  /** His settings store (settings.ts): privacy, notifications, the safety groups. */
  userSettings: StoredSettings;
  /**
   * His tier's limits and features as the flag store holds them (flags.ts). The server always
   * sets it; absent, the seeded table of his tier is read (pure tests, the web).
   */
  rules?: TierRules;
}

/** How the subject stands to the actor. */
export interface Relation {
  /** The actor blocked him. */
  blockedByActor: boolean;
  /** He blocked the actor. */
  blockedActor: boolean;
  matched: boolean;
  /** A conversation between the two exists. */
  conversation: boolean;
  /** He chose fuck or marry on the actor (a stored selection). */
  likedActor: boolean;
  /** The actor has opened his profile this UTC day. */
  openedToday: boolean;
}

/** The other user an action is about (or the actor himself: same id). */
export interface Subject {
  id: string;
  /** False when deactivated or banned. */
  isActive: boolean;
  profileComplete: boolean;
  currentMode: ProfileMode;
  relation: Relation;
  settings: {
    modeVisibility: ModeVisibility;
    showModeInProfile: boolean;
    incognito: boolean;
    showOnlineStatus: boolean;
    showLastActive: boolean;
    showReadReceipts: boolean;
    locationSharingConsent: boolean;
    locationPrecision: 'exact' | 'approximate';
    // His privacy controls (settings.ts, spec section 6's privacy row).
    profileVisibility: ProfileVisibility;
    shareDistance: boolean;
    messagesFrom: MessagesFrom;
    cruisingPrivate: boolean;
    healthPrivate: boolean;
    activityPrivate: boolean;
    // His communication safety (settings.ts, spec section 3): what a man without the verified
    // badge may not do to him. blockUnverifiedUsers is also privacySettings.restrictUnverifiedContacts.
    blockUnverifiedUsers: boolean;
    requirePhoneVerification: boolean;
    // His locationSafety group (settings.ts, spec section 3).
    /** Off: in no grid and no nearby list for anyone. */
    shareLocationEnabled: boolean;
    /** Only his matches learn his distance. */
    shareOnlyWithMatches: boolean;
    /** Others learn his distance to his 5 km area at best (geo.ts AREA_METERS). */
    hideExactLocation: boolean;
  };
  /** He has a live cruise session. */
  cruising: boolean;
}

/** Actions on one other user: they take a Subject. */
export const USER_ACTIONS = [
  'profile.view',
  'profile.open',
  'profile.seeDating',
  'profile.seeNow',
  'profile.seeMode',
  'presence.see',
  'lastActive.see',
  /** His Right Now and availability (cruising privacy). */
  'profile.seeRightNow',
  /** His profile's safety info: testing, PrEP (health privacy). */
  'profile.seeHealth',
  /** Linking him in the actor's activity contact book (activity privacy). */
  'contact.link',
  'grid.list',
  'grid.seeDistance',
  'cruise.listNearby',
  'cruise.seeArea',
  'game.select',
  'game.fuck',
  'game.marry',
  'game.super',
  'prompt.like',
  'conversation.open',
  'conversation.read',
  'message.send',
  'message.seeReceipts',
  'call.start',
  'user.block',
  'user.unblock',
] as const;
/** Actions about the actor alone: his own features and the tier's allowances. */
export const OWN_ACTIONS = [
  'users.browse',
  'likes.seeIdentities',
  'filters.advanced',
  'incognito.use',
  /** Turning on a control of the tier table's privacy row (settings.ts). */
  'privacy.control',
  'photo.add',
  'cruise.use',
  'cruise.start',
  'health.use',
  'activity.use',
  /**
   * Each signal of a call he placed (offer, ICE candidate, restart): the caller's tier must still
   * have video calls, so a caller downgraded mid-call cannot carry on. The callee's signals are
   * not asked this (he may be on any tier).
   */
  'call.signal',
  /** Starting or buying a boost (Platinum): the day's included ones and credits are the service's. */
  'boost.use',
  // Reports, feedback and support threads: open to every active member, onboarding or not
  // (a bug may be what stops him finishing it).
  'support.use',
] as const;
/**
 * Staff actions, decided by core's one permission check (admin.ts `staffCan`): the entry to the
 * admin area, and `admin.<module>.<action>` for each permission of spec section 6.
 */
export const STAFF_ACTIONS = ['admin.access', ...ALL_PERMISSIONS.map((p) => `admin.${p}` as const)] as const;
export const ACTIONS = [...USER_ACTIONS, ...OWN_ACTIONS, ...STAFF_ACTIONS] as const;
export type UserAction = (typeof USER_ACTIONS)[number];
export type OwnAction = (typeof OWN_ACTIONS)[number];
export type StaffAction = 'admin.access' | `admin.${Permission}`;
export type Action = (typeof ACTIONS)[number];

export const DENY_REASONS = [
  /** The actor's account is deactivated or banned: as signed out (401). */
  'inactive',
  /** The actor has not finished onboarding (spec section 2). */
  'incomplete_profile',
  /** The other user does not exist for the actor: unknown, deactivated or banned. */
  'not_found',
  /** A block either way: answered exactly as not_found, never as itself. */
  'blocked',
  /** His settings (visibility, incognito, presence) hide this from the actor. */
  'hidden',
  /** No conversation between the two. */
  'not_participant',
  /** Meaningless on oneself (block, like one's own answer, message oneself). */
  'self',
  /** The actor's app mode does not offer this choice (spec section 3). */
  'not_offered',
  /** A tier limit or Premium feature: `message` is the upgrade text. */
  'tier_limit',
  /** The actor turned the feature off (or marry-only mode turned cruising off). */
  'feature_disabled',
  'consent_required',
  'location_required',
  /** His settings refuse it, and he may know: only matches, or only verified members, may reach him. */
  'restricted',
  /** Not staff, or staff without the permission. */
  'staff_only',
  'staff_inactive',
] as const;
export type DenyReason = (typeof DENY_REASONS)[number];

/** An allowed action may spend one of today's profile opens (only 'profile.open' does). */
export type Decision =
  | { allowed: true; spends: 'open' | null }
  | { allowed: false; reason: DenyReason /** What to show the person (the spec's words where it has them). */; message: string };

/**
 * Whether a refusal must be answered as a missing user or conversation (404): a block, a hidden
 * user or a conversation that is not his must look exactly like nothing there.
 */
export function looksLikeNotFound(reason: DenyReason): boolean {
  return reason === 'not_found' || reason === 'blocked' || reason === 'hidden' || reason === 'not_participant';
}
