import {
  DEFAULT_MODE_SETTINGS,
  DEFAULT_SETTINGS,
  type ModeSettings,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
  type StoredSettings,
} from '@fmk/core';
import type { Updateable } from 'kysely';
import type { UserSettingsTable } from '../../db/schema.ts';

/**
 * Core's StoredSettings and the user_settings columns that hold them, one column per switch
 * (migration 20261125T1700-h1-settings). App mode visibility is the one switch stored elsewhere:
 * users.mode_settings.privacySettings.showModeInProfile, where the mode settings keep it.
 */

type Col = keyof UserSettingsTable;

const PRIVACY = {
  profileVisibility: 'profile_visibility',
  shareDistance: 'share_distance',
  showOnlineStatus: 'show_online_status',
  showLastActive: 'show_last_active',
  showReadReceipts: 'show_read_receipts',
  messagesFrom: 'messages_from',
  cruisingPrivate: 'cruising_private',
  healthPrivate: 'health_private',
  activityPrivate: 'activity_private',
  incognito: 'incognito_mode',
} as const satisfies Record<Exclude<keyof StoredSettings['privacy'], 'showCurrentMode'>, Col>;

const CHANNELS = {
  push: 'push_notifications_enabled',
  email: 'email_notifications_enabled',
  inApp: 'in_app_notifications_enabled',
} as const satisfies Record<NotificationChannel, Col>;

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** The column of one kind on one channel: notify_health_reminders_in_app. */
export const kindColumn = (kind: NotificationKind, channel: NotificationChannel) =>
  `notify_${snake(kind)}_${snake(channel)}` as Col;

const SAFETY = {
  contentFiltering: {
    enabled: 'content_filtering_enabled',
    strictMode: 'strict_mode',
    hideExplicitContent: 'hide_explicit_content',
    blurSensitiveImages: 'blur_sensitive_images',
  },
  locationSafety: {
    shareLocationEnabled: 'share_location_enabled',
    shareOnlyWithMatches: 'share_only_with_matches',
    hideExactLocation: 'hide_exact_location',
    locationReminders: 'location_reminders',
  },
  communicationSafety: {
    blockUnverifiedUsers: 'block_unverified_users',
    requirePhoneVerification: 'require_phone_verification',
    autoDeleteUnverifiedChats: 'auto_delete_unverified_chats',
    linkPreventionEnabled: 'link_prevention_enabled',
  },
  meetupSafety: {
    publicPlaceReminders: 'public_place_reminders',
    friendNotificationEnabled: 'friend_notification_enabled',
    emergencyContactEnabled: 'emergency_contact_enabled',
    safeWordEnabled: 'safe_word_enabled',
  },
} as const satisfies { [G in keyof StoredSettings['safety']]: Record<keyof StoredSettings['safety'][G], Col> };

/** Every column of the store, for a select (`s.` + each, or unprefixed). */
export const SETTINGS_COLUMNS: readonly Col[] = [
  ...Object.values(PRIVACY),
  ...Object.values(CHANNELS),
  ...NOTIFICATION_KINDS.flatMap((k) => NOTIFICATION_CHANNELS.map((c) => kindColumn(k, c))),
  ...Object.values(SAFETY).flatMap((g) => Object.values(g)),
];

/** A row of those columns; all null when the user has no settings row yet (a left join). */
export type SettingsRow = { [C in Col]?: unknown };

/**
 * The stored settings from a row (null columns: no row yet, so the defaults) and the user's mode
 * settings (app mode visibility).
 */
export function storedFromRow(row: SettingsRow, modeSettings: Partial<ModeSettings> | null): StoredSettings {
  const pick = <T>(col: Col, fallback: T): T => (row[col] ?? fallback) as T;
  const d = DEFAULT_SETTINGS;
  const privacy = { ...d.privacy };
  for (const [k, c] of Object.entries(PRIVACY)) Object.assign(privacy, { [k]: pick(c, d.privacy[k as keyof typeof PRIVACY]) });
  privacy.showCurrentMode = (modeSettings?.privacySettings ?? DEFAULT_MODE_SETTINGS.privacySettings).showModeInProfile;
  const channels = { ...d.notifications.channels };
  for (const c of NOTIFICATION_CHANNELS) channels[c] = pick(CHANNELS[c], channels[c]);
  const kinds = { ...d.notifications.kinds };
  for (const k of NOTIFICATION_KINDS) {
    const def = d.notifications.kinds[k];
    kinds[k] = {
      push: pick(kindColumn(k, 'push'), def.push),
      email: pick(kindColumn(k, 'email'), def.email),
      inApp: pick(kindColumn(k, 'inApp'), def.inApp),
    };
  }
  const safety = { ...d.safety };
  for (const [g, fields] of Object.entries(SAFETY) as [keyof typeof SAFETY, Record<string, Col>][]) {
    Object.assign(safety, { [g]: { ...d.safety[g] } });
    for (const [f, c] of Object.entries(fields))
      Object.assign(safety[g], { [f]: pick(c, (d.safety[g] as Record<string, boolean>)[f]) });
  }
  return { privacy, notifications: { channels, kinds }, safety };
}

/** The columns that hold `s` (app mode visibility is not among them: see the top). */
/** The columns rowFromStored writes. */
export type StoredColumns = Omit<
  Updateable<UserSettingsTable>,
  'user_id' | 'gender_preferences' | 'relationship_status_preferences' | 'updated_at'
>;

export function rowFromStored(s: StoredSettings): StoredColumns {
  const row: Record<string, unknown> = {};
  for (const [k, c] of Object.entries(PRIVACY)) row[c] = s.privacy[k as keyof typeof PRIVACY];
  for (const c of NOTIFICATION_CHANNELS) row[CHANNELS[c]] = s.notifications.channels[c];
  for (const k of NOTIFICATION_KINDS) for (const c of NOTIFICATION_CHANNELS) row[kindColumn(k, c)] = s.notifications.kinds[k][c];
  for (const [g, fields] of Object.entries(SAFETY) as [keyof typeof SAFETY, Record<string, Col>][]) {
    for (const [f, c] of Object.entries(fields)) row[c] = (s.safety[g] as Record<string, boolean>)[f];
  }
  return row as StoredColumns;
}
