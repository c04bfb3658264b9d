import { z } from 'zod';

/**
 * A member's settings (spec sections 3 and 6): the privacy row of the tier table, notifications
 * per kind and channel, and the five safety groups. One stored field per switch
 * (`StoredSettings`); the API view (`Settings`) shows some of them twice, where the safety
 * group privacySettings names a privacy control in other words (docs/settings.md):
 *   hideFromSearch             = privacy.profileVisibility is 'matches'
 *   hideLastSeen               = not privacy.showLastActive
 *   hideReadReceipts           = not privacy.showReadReceipts
 *   restrictUnverifiedContacts = communicationSafety.blockUnverifiedUsers
 */

export const PROFILE_VISIBILITIES = ['public', 'matches'] as const;
export type ProfileVisibility = (typeof PROFILE_VISIBILITIES)[number];
/** Who may message you (privacy's message settings): everyone the tier rules allow, or only matches. */
export const MESSAGES_FROM = ['everyone', 'matches'] as const;
export type MessagesFrom = (typeof MESSAGES_FROM)[number];
/** The refusal when he takes messages from matches only. */
export const MATCHES_ONLY_TEXT = 'He only takes messages from his matches.';
/** The refusal when he keeps his activity to himself. */
export const NO_CONTACT_LINK_TEXT = 'He keeps his profile out of contact books.';
/** The refusal to a man without the verified badge when he restricts unverified contacts. */
export const VERIFIED_CONTACTS_ONLY_TEXT =
  'He only hears from members who verified their phone number. Verify yours in Settings to contact him.';
/** The refusal to a man without the verified badge when he requires phone verification to message him. */
export const VERIFIED_MESSAGES_ONLY_TEXT =
  'He only takes messages from members who verified their phone number. Verify yours in Settings to message him.';
/**
 * autoDeleteUnverifiedChats: a conversation an unverified man started and the member never
 * answered leaves the member's list once the man's latest message is this old.
 */
export const UNANSWERED_UNVERIFIED_CHAT_MS = 24 * 60 * 60 * 1000;

export const NOTIFICATION_KINDS = ['messages', 'matches', 'likes', 'healthReminders', 'safety'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const NOTIFICATION_CHANNELS = ['push', 'email', 'inApp'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * Kinds the email channel carries (the notifier's mail senders): a new match, and a safety
 * alert that asks something of him (medium and high). Health reminders never go by mail (a
 * mailbox is read on shared screens); messages and likes are not mailed one by one.
 */
export const EMAIL_KINDS: readonly NotificationKind[] = ['matches', 'safety'];

/** A kind reaches a channel when both his channel switch and that kind's switch on it are on. */
export function notificationAllowed(
  n: { channels: Record<NotificationChannel, boolean>; kinds: Record<NotificationKind, Record<NotificationChannel, boolean>> },
  kind: NotificationKind,
  channel: NotificationChannel,
): boolean {
  return n.channels[channel] && n.kinds[kind][channel];
}

const privacyFields = {
  /** 'matches': out of the grid, nearby and search; his profile opens only for matches and conversations. */
  profileVisibility: z.enum(PROFILE_VISIBILITIES),
  /** App mode visibility: his current mode (dating / now) on his profile. */
  showCurrentMode: z.boolean(),
  /** Distance sharing: others see a distance to him. */
  shareDistance: z.boolean(),
  showOnlineStatus: z.boolean(),
  showLastActive: z.boolean(),
  showReadReceipts: z.boolean(),
  messagesFrom: z.enum(MESSAGES_FROM),
  /** Cruising privacy: his Right Now and his place among nearby cruisers only for matches. */
  cruisingPrivate: z.boolean(),
  /** Health privacy: his profile's safety info (testing, PrEP) only for matches. */
  healthPrivate: z.boolean(),
  /** Activity privacy: other members' contact books may not link to his profile. */
  activityPrivate: z.boolean(),
  incognito: z.boolean(),
};
export const privacySettingsSchema = z.object(privacyFields).strict();
export type PrivacySettings = z.infer<typeof privacySettingsSchema>;

const channelSwitches = z.object({ push: z.boolean(), email: z.boolean(), inApp: z.boolean() }).strict();
const channelPatch = channelSwitches.partial().strict();
const kindsOf = <T extends z.ZodType>(t: T) =>
  z.object({ messages: t, matches: t, likes: t, healthReminders: t, safety: t }).strict();
export const notificationSettingsSchema = z
  .object({
    /** The spec's pushNotificationsEnabled, emailNotificationsEnabled, inAppNotificationsEnabled. */
    channels: channelSwitches,
    kinds: kindsOf(channelSwitches),
  })
  .strict();
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

const group = <T extends Record<string, z.ZodBoolean>>(fields: T) => z.object(fields).strict();
/** The five safety groups, field names exactly as spec section 3 "Safety settings groups". */
const safetyGroups = {
  contentFiltering: group({
    enabled: z.boolean(),
    strictMode: z.boolean(),
    hideExplicitContent: z.boolean(),
    blurSensitiveImages: z.boolean(),
  }),
  locationSafety: group({
    shareLocationEnabled: z.boolean(),
    shareOnlyWithMatches: z.boolean(),
    hideExactLocation: z.boolean(),
    locationReminders: z.boolean(),
  }),
  communicationSafety: group({
    blockUnverifiedUsers: z.boolean(),
    requirePhoneVerification: z.boolean(),
    autoDeleteUnverifiedChats: z.boolean(),
    linkPreventionEnabled: z.boolean(),
  }),
  meetupSafety: group({
    publicPlaceReminders: z.boolean(),
    friendNotificationEnabled: z.boolean(),
    emergencyContactEnabled: z.boolean(),
    safeWordEnabled: z.boolean(),
  }),
  privacySettings: group({
    hideFromSearch: z.boolean(),
    hideLastSeen: z.boolean(),
    hideReadReceipts: z.boolean(),
    restrictUnverifiedContacts: z.boolean(),
  }),
};
export const safetySettingsSchema = z.object(safetyGroups).strict();
export type SafetySettings = z.infer<typeof safetySettingsSchema>;
export type SafetyGroup = keyof SafetySettings;

/** GET /me/settings. */
export const settingsSchema = z.object({
  privacy: privacySettingsSchema,
  notifications: notificationSettingsSchema,
  safety: safetySettingsSchema,
  updatedAt: z.string().nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** PATCH /me/settings: any part of any group; an unknown key anywhere is a 400. */
export const settingsPatchBody = z
  .object({
    privacy: privacySettingsSchema.partial().strict(),
    notifications: z
      .object({ channels: channelPatch, kinds: kindsOf(channelPatch).partial().strict() })
      .partial()
      .strict(),
    safety: z
      .object({
        contentFiltering: safetyGroups.contentFiltering.partial().strict(),
        locationSafety: safetyGroups.locationSafety.partial().strict(),
        communicationSafety: safetyGroups.communicationSafety.partial().strict(),
        meetupSafety: safetyGroups.meetupSafety.partial().strict(),
        privacySettings: safetyGroups.privacySettings.partial().strict(),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchBody>;

/**
 * What is stored: one field per switch, so that no two switches do one thing. The safety
 * group privacySettings has no field of its own (see the top of this file).
 */
export interface StoredSettings {
  privacy: PrivacySettings;
  notifications: NotificationSettings;
  safety: Omit<SafetySettings, 'privacySettings'>;
}

const allOn = { push: true, email: true, inApp: true };

/**
 * Defaults (the spec gives none for privacy rows beyond User settings, and none for the safety
 * groups; docs/settings.md says why each): everything shown as the spec's User settings do,
 * protections that cost nothing on, and mail off until he turns it on.
 */
export const DEFAULT_SETTINGS: StoredSettings = {
  privacy: {
    profileVisibility: 'public',
    showCurrentMode: true,
    shareDistance: true,
    showOnlineStatus: true,
    showLastActive: true,
    showReadReceipts: true,
    messagesFrom: 'everyone',
    cruisingPrivate: false,
    healthPrivate: false,
    activityPrivate: false,
    incognito: false,
  },
  notifications: {
    channels: { push: true, email: false, inApp: true },
    kinds: {
      messages: { ...allOn, email: false },
      matches: { ...allOn },
      likes: { ...allOn, email: false },
      healthReminders: { ...allOn, email: false },
      safety: { ...allOn },
    },
  },
  safety: {
    contentFiltering: { enabled: true, strictMode: false, hideExplicitContent: false, blurSensitiveImages: true },
    locationSafety: {
      shareLocationEnabled: true,
      shareOnlyWithMatches: false,
      hideExactLocation: false,
      locationReminders: true,
    },
    communicationSafety: {
      blockUnverifiedUsers: false,
      requirePhoneVerification: false,
      autoDeleteUnverifiedChats: false,
      linkPreventionEnabled: true,
    },
    meetupSafety: {
      publicPlaceReminders: true,
      friendNotificationEnabled: false,
      emergencyContactEnabled: false,
      safeWordEnabled: false,
    },
  },
};

/** The API view of what is stored: privacySettings derived from the fields it names. */
export function toSettings(s: StoredSettings, updatedAt: Date | null): Settings {
  return {
    privacy: s.privacy,
    notifications: s.notifications,
    safety: {
      ...s.safety,
      privacySettings: {
        hideFromSearch: s.privacy.profileVisibility !== 'public',
        hideLastSeen: !s.privacy.showLastActive,
        hideReadReceipts: !s.privacy.showReadReceipts,
        restrictUnverifiedContacts: s.safety.communicationSafety.blockUnverifiedUsers,
      },
    },
    updatedAt: updatedAt?.toISOString() ?? null,
  };
}

export const SETTINGS_CONFLICT = 'Two settings in this change contradict each other';

/**
 * The stored settings after a PATCH, or the 400 text when the patch names one switch twice with
 * two values (privacy.showLastActive true and privacySettings.hideLastSeen true).
 */
export function applySettingsPatch(s: StoredSettings, p: SettingsPatch): { settings: StoredSettings } | { error: string } {
  const ps = p.safety?.privacySettings ?? {};
  const privacy = { ...s.privacy, ...p.privacy };
  const comm = { ...s.safety.communicationSafety, ...p.safety?.communicationSafety };
  const visibility = ps.hideFromSearch === undefined ? undefined : ps.hideFromSearch ? 'matches' : 'public';
  const showLast = ps.hideLastSeen === undefined ? undefined : !ps.hideLastSeen;
  const showReceipts = ps.hideReadReceipts === undefined ? undefined : !ps.hideReadReceipts;
  // An alias and its field named together must agree.
  const clash = (alias: unknown, direct: unknown) => alias !== undefined && direct !== undefined && alias !== direct;
  if (
    clash(visibility, p.privacy?.profileVisibility) ||
    clash(showLast, p.privacy?.showLastActive) ||
    clash(showReceipts, p.privacy?.showReadReceipts) ||
    clash(ps.restrictUnverifiedContacts, p.safety?.communicationSafety?.blockUnverifiedUsers)
  ) {
    return { error: SETTINGS_CONFLICT };
  }
  if (visibility) privacy.profileVisibility = visibility;
  if (showLast !== undefined) privacy.showLastActive = showLast;
  if (showReceipts !== undefined) privacy.showReadReceipts = showReceipts;
  if (ps.restrictUnverifiedContacts !== undefined) comm.blockUnverifiedUsers = ps.restrictUnverifiedContacts;
  const kinds = { ...s.notifications.kinds };
  for (const k of NOTIFICATION_KINDS) kinds[k] = { ...kinds[k], ...p.notifications?.kinds?.[k] };
  const safety = { ...s.safety, communicationSafety: comm };
  for (const g of ['contentFiltering', 'locationSafety', 'meetupSafety'] as const) {
    Object.assign(safety, { [g]: { ...s.safety[g], ...p.safety?.[g] } });
  }
  return {
    settings: {
      privacy,
      notifications: { channels: { ...s.notifications.channels, ...p.notifications?.channels }, kinds },
      safety,
    },
  };
}

/**
 * The privacy controls a change turns away from their open default (spec section 6, the privacy
 * row; incognito is its own row): each needs the tier's `privacy.control` (or `incognito.use`)
 * from `can`. Going back to the default never does, so a member whose Premium ended can undo
 * what he set.
 */
export function privacyControlsTurnedOn(before: PrivacySettings, after: PrivacySettings): (keyof PrivacySettings)[] {
  return (Object.keys(after) as (keyof PrivacySettings)[]).filter(
    (k) => after[k] !== before[k] && after[k] !== DEFAULT_SETTINGS.privacy[k],
  );
}
