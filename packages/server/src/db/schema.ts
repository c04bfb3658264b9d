import type { DatingProfile, ModeSettings, ModeVisibility, NowProfile, Preferences, Stats } from '@fmk/core';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Row types of the database, one interface per table (snake_case as in SQL). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  google_sub: string | null;
  anonymous_id: string | null;
  display_name: string | null;
  photo_url: string | null;
  subscription_tier: 'free' | 'premium' | 'platinum';
  is_active: Generated<boolean>;
  onboarding_complete: Generated<boolean>;
  is_beta_user: Generated<boolean>;
  has_lifetime_premium: Generated<boolean>;
  beta_joined_at: Timestamp | null;
  age: Generated<number>;
  gender: string | null;
  bio: string | null;
  interests: Json<string[]>;
  intentions: Json<string[]>;
  selected_features: Json<string[]>;
  tribes: Json<string[]>;
  current_mode: Generated<'dating' | 'now'>;
  app_mode: Generated<'both' | 'fuck' | 'marry'>;
  cruising_enabled: Generated<boolean>;
  health_enabled: Generated<boolean>;
  activity_tracking_enabled: Generated<boolean>;
  right_now_enabled: Generated<boolean>;
  /** null until first saved: read as DEFAULT_MODE_SETTINGS. */
  mode_settings: Json<ModeSettings> | null;
  preferences: Json<Preferences>;
  stats: Json<Stats>;
  dating_profile: Json<DatingProfile>;
  now_profile: Json<NowProfile>;
  mode_visibility: Json<ModeVisibility>;
  is_online: Generated<boolean>;
  last_seen: Timestamp | null;
  fcm_token: string | null;
  token_updated: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface UserSettingsTable {
  user_id: string;
  use_metric: Generated<boolean>;
  gender_preferences: Json<string[]>;
  relationship_status_preferences: Json<string[]>;
  now_mode: Generated<boolean>;
  profile_visibility: Generated<string>;
  show_online_status: Generated<boolean>;
  show_last_active: Generated<boolean>;
  show_read_receipts: Generated<boolean>;
  incognito_mode: Generated<boolean>;
  data_sharing: Generated<boolean>;
  location_precision: Generated<'exact' | 'approximate'>;
  push_notifications_enabled: Generated<boolean>;
  email_notifications_enabled: Generated<boolean>;
  in_app_notifications_enabled: Generated<boolean>;
  location_sharing_consent: Generated<boolean>;
  last_active: Timestamp | null;
  updated_at: Generated<Date>;
}

export interface IdentityMappingsTable {
  id: string;
  email: string;
  user_id: string;
  is_active: Generated<boolean>;
  previous_emails: Json<string[]>;
  previous_anonymous_ids: Json<string[]>;
  registration_source: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface BannedEmailsTable {
  email_hash: string;
  email: string;
  banned_at: Timestamp;
  banned_by: string;
  reason: string;
  associated_anonymous_ids: Json<string[]>;
  is_permanent: boolean;
  expires_at: Timestamp | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  admin_id: string;
  action: string;
  anonymous_id: string | null;
  email: string | null;
  reason: string;
  ip_address: string | null;
  created_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp;
  user_agent: string | null;
  ip_address: string | null;
}

export interface AuthAttemptsTable {
  id: Generated<number>;
  key: string;
  created_at: Timestamp;
}

export interface OauthFlowsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  created_at: Timestamp;
}

export interface AuthRedirectResultsTable {
  code_hash: string;
  user_id: string;
  created_at: Timestamp;
  used_at: Timestamp | null;
}

export interface PromptsTable {
  id: string;
  text: string;
  category: string;
  is_active: Generated<boolean>;
  usage_count: Generated<number>;
  like_count: Generated<number>;
  created_by: string;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface PhotosTable {
  id: string;
  user_id: string;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  position: number;
  created_at: Generated<Date>;
}

export interface AdminSettingsTable {
  key: string;
  value: Json<unknown>;
  updated_at: Timestamp;
}

export interface AdminUsersTable {
  user_id: string;
  role: 'owner' | 'super_admin' | 'admin' | 'moderator';
  permissions: Json<string[] | null> | null;
  is_active: Generated<boolean>;
  last_login: Timestamp | null;
  created_at: Generated<Date>;
}

export interface ModeEventsTable {
  id: Generated<number>;
  user_id: string;
  from_label: string;
  to_label: string;
  trigger: 'manual' | 'auto';
  created_at: Timestamp;
}

/** A like of one owner's answer to one prompt. */
export interface PromptLikesTable {
  prompt_id: string;
  owner_id: string;
  liker_id: string;
  created_at: Generated<Date>;
}

export interface UserBlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: Generated<Date>;
}

export interface SelectionsTable {
  id: string;
  chooser_id: string;
  target_id: string;
  action: 'fuck' | 'marry';
  is_super: Generated<boolean>;
  client_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  seen_at: Timestamp | null;
}

export interface MatchesTable {
  id: string;
  user_a: string;
  user_b: string;
  match_type: 'perfect-fuck' | 'perfect-marry' | 'mixed';
  user_actions: Json<Record<string, 'fuck' | 'marry'>>;
  created_at: Timestamp;
  matched_at: Timestamp;
}

export interface ConversationsTable {
  id: string;
  user_a: string;
  user_b: string;
  type: Generated<string>;
  mode: Generated<string>;
  match_type: string | null;
  is_accepted: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_activity: Timestamp;
}

export interface DB {
  selections: SelectionsTable;
  matches: MatchesTable;
  conversations: ConversationsTable;
  users: UsersTable;
  user_settings: UserSettingsTable;
  identity_mappings: IdentityMappingsTable;
  banned_emails: BannedEmailsTable;
  audit_log: AuditLogTable;
  sessions: SessionsTable;
  auth_attempts: AuthAttemptsTable;
  oauth_flows: OauthFlowsTable;
  auth_redirect_results: AuthRedirectResultsTable;
  prompts: PromptsTable;
  photos: PhotosTable;
  admin_settings: AdminSettingsTable;
  admin_users: AdminUsersTable;
  mode_events: ModeEventsTable;
  prompt_likes: PromptLikesTable;
  user_blocks: UserBlocksTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
