import type {
  AlertAction,
  AlertSeverity,
  AlertState,
  AlertType,
  DatingProfile,
  ModeSettings,
  ModeVisibility,
  NowProfile,
  Preferences,
  ReportCategory,
  ReportStatus,
  Stats,
} from '@fmk/core';
import type { AiAnalysis } from '@fmk/core/moderation';
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
  /** The model's nudity score of the photo photo_url shows; null until scored (or no photo). */
  photo_nudity: number | null;
  /** The model flagged that photo for nudity (seen by others only once staff approved it). */
  photo_sensitive: Generated<boolean>;
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
  /** When the person opened the confirmation link mailed to `email`; null until then. */
  email_verified_at: Timestamp | null;
  /** A new address waiting for its confirmation link to be opened; null when none. */
  pending_email: string | null;
  /** E.164; private to its owner, never in another user's answers. */
  phone_number: string | null;
  /** When the texted code was typed back: the verified badge. Null when unverified or no number. */
  phone_verified_at: Timestamp | null;
}

export interface UserSettingsTable {
  user_id: string;
  use_metric: Generated<boolean>;
  gender_preferences: Json<string[]>;
  relationship_status_preferences: Json<string[]>;
  now_mode: Generated<boolean>;
  profile_visibility: Generated<'public' | 'matches'>;
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
  // The settings store: core's StoredSettings, one column per switch.
  messages_from: Generated<'everyone' | 'matches'>;
  share_distance: Generated<boolean>;
  cruising_private: Generated<boolean>;
  health_private: Generated<boolean>;
  activity_private: Generated<boolean>;
  notify_messages_push: Generated<boolean>;
  notify_messages_email: Generated<boolean>;
  notify_messages_in_app: Generated<boolean>;
  notify_matches_push: Generated<boolean>;
  notify_matches_email: Generated<boolean>;
  notify_matches_in_app: Generated<boolean>;
  notify_likes_push: Generated<boolean>;
  notify_likes_email: Generated<boolean>;
  notify_likes_in_app: Generated<boolean>;
  notify_health_reminders_push: Generated<boolean>;
  notify_health_reminders_email: Generated<boolean>;
  notify_health_reminders_in_app: Generated<boolean>;
  notify_safety_push: Generated<boolean>;
  notify_safety_email: Generated<boolean>;
  notify_safety_in_app: Generated<boolean>;
  content_filtering_enabled: Generated<boolean>;
  strict_mode: Generated<boolean>;
  hide_explicit_content: Generated<boolean>;
  blur_sensitive_images: Generated<boolean>;
  share_location_enabled: Generated<boolean>;
  share_only_with_matches: Generated<boolean>;
  hide_exact_location: Generated<boolean>;
  location_reminders: Generated<boolean>;
  block_unverified_users: Generated<boolean>;
  require_phone_verification: Generated<boolean>;
  auto_delete_unverified_chats: Generated<boolean>;
  link_prevention_enabled: Generated<boolean>;
  public_place_reminders: Generated<boolean>;
  friend_notification_enabled: Generated<boolean>;
  emergency_contact_enabled: Generated<boolean>;
  safe_word_enabled: Generated<boolean>;
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
  target_type: string | null;
  target_id: string | null;
  /** sha256 of admin_id and of "email|anonymous_id": the chain survives erasure nulling the clear text. */
  admin_digest: string | null;
  subject_digest: string | null;
  prev_hash: string | null;
  hash: string | null;
}

export interface AdminInvitesTable {
  id: string;
  email: string;
  role: 'owner' | 'super_admin' | 'admin' | 'moderator';
  token_hash: string;
  invited_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  revoked_at: Timestamp | null;
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
  kind: Generated<'member' | 'staff'>;
}

export interface AuthAttemptsTable {
  id: Generated<number>;
  key: string;
  created_at: Timestamp;
}

/** One-time links mailed by the account flows (only the token's hash is kept). */
export interface AccountLinksTable {
  token_hash: string;
  user_id: string;
  purpose: 'verify_email' | 'reset_password' | 'change_email';
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** The code texted to a user's number and waiting to be typed back (one at a time; only its HMAC kept). */
export interface PhoneCodesTable {
  user_id: string;
  phone: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** An archive of everything the server holds about the user ('Download my data'). */
export interface DataExportsTable {
  id: string;
  user_id: string;
  status: 'building' | 'ready' | 'failed' | 'expired';
  /** 0–100, as the building goes through the categories. */
  progress: Generated<number>;
  /** The zip in storage; null while building, after a failure, and once expired. */
  storage_key: string | null;
  bytes: number | null;
  created_at: Timestamp;
  ready_at: Timestamp | null;
  expires_at: Timestamp | null;
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
  /** Hidden from everyone but its owner until staff decide its moderation item. */
  held: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface ModerationItemsTable {
  id: string;
  content_type: 'profile_photo' | 'chat_photo';
  /** photos.id or message_photos.id. */
  content_id: string;
  user_id: string;
  /** The photo's file, for staff; null once rejected (removed). */
  storage_key: string | null;
  status: 'pending' | 'approved' | 'rejected';
  flagged_reason: string | null;
  /** The highest score that flagged it (the nudity score when nothing did). */
  confidence: number;
  ai_analysis: Json<AiAnalysis>;
  moderator_id: string | null;
  moderator_notes: string | null;
  created_at: Date;
  reviewed_at: Date | null;
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
  /** The TOTP secret, sealed (AES-GCM under a key derived from TOKEN_SECRET). */
  totp_secret: string | null;
  totp_enabled_at: Timestamp | null;
  /** The last 30 s step accepted: a code is good once. */
  totp_last_step: number | null;
  /** sha256 of each unused recovery code. */
  recovery_codes: ColumnType<string[], string | undefined, string>;
  invited_by: string | null;
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

/** A selection request by client id and the result it got (idempotent retries, super counts). */
export interface SelectionRequestsTable {
  chooser_id: string;
  client_id: string;
  target_id: string;
  action: 'fuck' | 'marry' | 'kill';
  is_super: boolean;
  result: Json<unknown>;
  created_at: Timestamp;
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
  /** Per user: _a is user_a's, _b is user_b's. */
  unread_a: Generated<number>;
  unread_b: Generated<number>;
  deleted_a: Generated<boolean>;
  deleted_b: Generated<boolean>;
  last_message_id: string | null;
}

export interface MessagesTable {
  id: string;
  /** bigserial, parsed to a number (db/index.ts). */
  seq: Generated<number>;
  conversation_id: string;
  sender_id: string;
  receiver_id: string;
  client_id: string;
  type: 'text' | 'photo' | 'call';
  content: Generated<string>;
  photo_id: string | null;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
  read_at: Timestamp | null;
}

export interface CallsTable {
  id: string;
  caller_id: string;
  callee_id: string;
  conversation_id: string | null;
  kind: 'video' | 'voice';
  state: 'ringing' | 'active' | 'ended';
  outcome: 'missed' | 'declined' | 'busy' | 'finished' | 'blocked' | 'dropped' | null;
  caller_device: string;
  callee_device: string | null;
  offer_sdp: string | null;
  answer_sdp: string | null;
  created_at: Timestamp;
  answered_at: Timestamp | null;
  ended_at: Timestamp | null;
}

export interface MessagePhotosTable {
  id: string;
  user_id: string;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  /** The model scored it explicit: a receiver's app blurs or hides it by his settings. */
  sensitive: Generated<boolean>;
  created_at: Timestamp;
}

export interface MessageCountersTable {
  user_id: string;
  /** A UTC date, 'YYYY-MM-DD'. */
  day: ColumnType<string, string, string>;
  count: Generated<number>;
}

export interface LiveConnectionsTable {
  id: string;
  user_id: string;
  instance_id: string;
  connected_at: Timestamp;
  heartbeat_at: Timestamp;
}

/** A user's location: the centre of his privacy cell only (core geo.ts), never the raw position. */
export interface UserLocationsTable {
  user_id: string;
  lat: number;
  lng: number;
  /** The same point as an earth cube (ll_to_earth), written by SQL: read it only in SQL. */
  geo: ColumnType<string, never, never>;
  cell_row: number;
  cell_col: number;
  /** His place's lattice shift (core PlaceShift), drawn once and kept: never sent. */
  shift_lat: Generated<number>;
  shift_lng: Generated<number>;
  is_active: Generated<boolean>;
  mode: Generated<'dating' | 'now'>;
  last_updated: Timestamp;
  flagged_at: Timestamp | null;
  flag_reason: string | null;
}

/** The viewer's clickable grid profiles for one UTC day (tier limit, spec section 6). */
export interface GridUnlocksTable {
  viewer_id: string;
  day: ColumnType<string, string, string>;
  target_id: string;
  position: number;
  created_at: Timestamp;
}

/** A browser's Web Push subscription; updated_at is the spec's tokenUpdated (refreshed after 7 days). */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// cruise
/** A timed availability session: over at ends_at; ended_at and minutes set when finalized. */
export interface CruiseSessionsTable {
  id: string;
  user_id: string;
  started_at: Timestamp;
  ends_at: Timestamp;
  ended_at: Timestamp | null;
  minutes: number | null;
  end_reason: 'user' | 'expired' | null;
  right_now: string | null;
}

/** Quota and session counters per user (core cruise.ts CruiseCounters). */
export interface CruiseCountersTable {
  user_id: string;
  period: 'day' | 'week';
  period_start: Timestamp | null;
  starts: number;
  sessions: number;
  minutes: number;
  total_sessions: number;
  total_minutes: number;
  last_start_at: Timestamp | null;
}

export interface CruisingSpotsTable {
  id: string;
  name: string;
  kind: 'park' | 'beach' | 'sauna' | 'bar' | 'club' | 'gym' | 'woods' | 'other';
  description: Generated<string>;
  lat: number;
  lng: number;
  status: Generated<'pending' | 'approved' | 'rejected'>;
  proposed_by: string | null;
  reviewed_by: string | null;
  reviewed_at: Timestamp | null;
  review_note: string | null;
  created_at: Timestamp;
}

export interface SpotCheckinsTable {
  id: string;
  spot_id: string;
  user_id: string;
  checked_in_at: Timestamp;
  until: Timestamp;
}

export interface GroupEventsTable {
  id: string;
  creator_id: string;
  spot_id: string | null;
  title: string;
  description: Generated<string>;
  place_name: string;
  lat: number;
  lng: number;
  starts_at: Timestamp;
  ends_at: Timestamp;
  status: Generated<'scheduled' | 'cancelled'>;
  created_at: Timestamp;
  cancelled_at: Timestamp | null;
}

export interface EventAttendeesTable {
  event_id: string;
  user_id: string;
  joined_at: Timestamp;
}

export interface EventCommentsTable {
  id: string;
  event_id: string;
  user_id: string;
  body: string;
  created_at: Timestamp;
}
// end cruise

// health and activity
/** A user's data key for private records, wrapped (AES-256-GCM) under the server's HEALTH_KEY. */
export interface HealthKeysTable {
  user_id: string;
  key_version: number;
  wrapped_key: Uint8Array;
  created_at: Generated<Date>;
}

/** The IANA zone the user's browser reported: reminders are pushed at its wall-clock time. */
export interface HealthSettingsTable {
  user_id: string;
  time_zone: string;
  updated_at: Timestamp;
}

/** One encrypted health or activity record; everything but these columns is in `payload`. */
export interface PrivateRecordsTable {
  id: string;
  user_id: string;
  kind: 'medication' | 'medication_log' | 'screening' | 'contact' | 'activity_log';
  created_at: Timestamp;
  payload: Uint8Array;
}

/** The next reminder instant of an active daily medication (no names: the scheduler's queue). */
export interface MedicationSchedulesTable {
  medication_id: string;
  user_id: string;
  next_due_at: Timestamp;
}

/** One row per dose reminded: its primary key makes each reminder go out once. */
export interface MedicationRemindersSentTable {
  medication_id: string;
  dose_date: ColumnType<string, string, string>;
  user_id: string;
  sent_at: Timestamp;
}

// support: bug reports, feedback and support threads
export interface SupportScreenshotsTable {
  id: string;
  user_id: string;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  created_at: Timestamp;
}

// safety: reports against members and staff's items
export interface UserReportsTable {
  id: string;
  reporter_id: string;
  reported_id: string;
  reason: string;
  category: ReportCategory;
  description: string;
  status: Generated<ReportStatus>;
  blocked: boolean;
  reviewed_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReportScreenshotsTable {
  id: string;
  user_id: string;
  report_id: string | null;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  created_at: Timestamp;
}

export interface ReportMessagesTable {
  report_id: string;
  message_id: string;
  from_reported: boolean;
  type: 'text' | 'photo' | 'call';
  content: string;
  /** The chat photo a reported photo message carried (message_photos.id); null for other messages. */
  photo_id: string | null;
  sent_at: Timestamp;
}

export interface SafetyFlagsTable {
  id: string;
  user_id: string;
  kind: 'suspicious_behavior';
  reporters: number;
  status: Generated<'open' | 'closed'>;
  created_at: Timestamp;
}

export interface SafetyAlertsTable {
  id: string;
  user_id: string;
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  content_id: string | null;
  actions: Json<AlertAction[]>;
  state: Generated<AlertState>;
  dedupe_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SafetyContactsTable {
  user_id: string;
  name: string;
  email: string;
  safe_word: string | null;
  updated_at: Timestamp;
}

export interface MeetupCheckinsTable {
  id: string;
  user_id: string;
  meeting_who: string;
  place: string;
  starts_at: Timestamp;
  check_in_by: Timestamp;
  status: Generated<'active' | 'checked_in' | 'overdue' | 'cancelled'>;
  contact_told: Generated<boolean>;
  notified_at: Timestamp | null;
  created_at: Timestamp;
}

export interface FeedbackReportsTable {
  id: string;
  user_id: string;
  kind: 'bug' | 'feedback';
  category: string;
  text: string;
  status: Generated<'new' | 'in_review' | 'resolved' | 'closed'>;
  screenshot_id: string | null;
  app_version: string;
  browser: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SupportThreadsTable {
  id: string;
  user_id: string;
  subject: string;
  status: Generated<'open' | 'answered' | 'closed'>;
  created_at: Timestamp;
  last_message_at: Timestamp;
  member_read_at: Timestamp;
  staff_read_at: Timestamp | null;
}

export interface SupportMessagesTable {
  id: string;
  thread_id: string;
  from_staff: boolean;
  staff_id: string | null;
  text: string;
  created_at: Timestamp;
}

export interface DB {
  // cruise
  cruise_sessions: CruiseSessionsTable;
  cruise_counters: CruiseCountersTable;
  cruising_spots: CruisingSpotsTable;
  spot_checkins: SpotCheckinsTable;
  group_events: GroupEventsTable;
  event_attendees: EventAttendeesTable;
  event_comments: EventCommentsTable;
  // end cruise
  selections: SelectionsTable;
  selection_requests: SelectionRequestsTable;
  matches: MatchesTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  message_photos: MessagePhotosTable;
  message_counters: MessageCountersTable;
  live_connections: LiveConnectionsTable;
  calls: CallsTable;
  users: UsersTable;
  user_settings: UserSettingsTable;
  identity_mappings: IdentityMappingsTable;
  banned_emails: BannedEmailsTable;
  audit_log: AuditLogTable;
  sessions: SessionsTable;
  auth_attempts: AuthAttemptsTable;
  account_links: AccountLinksTable;
  phone_codes: PhoneCodesTable;
  data_exports: DataExportsTable;
  oauth_flows: OauthFlowsTable;
  auth_redirect_results: AuthRedirectResultsTable;
  prompts: PromptsTable;
  photos: PhotosTable;
  moderation_items: ModerationItemsTable;
  admin_settings: AdminSettingsTable;
  admin_users: AdminUsersTable;
  admin_invites: AdminInvitesTable;
  mode_events: ModeEventsTable;
  prompt_likes: PromptLikesTable;
  user_blocks: UserBlocksTable;
  push_subscriptions: PushSubscriptionsTable;
  // health and activity
  health_keys: HealthKeysTable;
  health_settings: HealthSettingsTable;
  private_records: PrivateRecordsTable;
  medication_schedules: MedicationSchedulesTable;
  medication_reminders_sent: MedicationRemindersSentTable;
  user_locations: UserLocationsTable;
  grid_unlocks: GridUnlocksTable;
  // support
  support_screenshots: SupportScreenshotsTable;
  feedback_reports: FeedbackReportsTable;
  user_reports: UserReportsTable;
  report_screenshots: ReportScreenshotsTable;
  report_messages: ReportMessagesTable;
  safety_flags: SafetyFlagsTable;
  safety_alerts: SafetyAlertsTable;
  safety_contacts: SafetyContactsTable;
  meetup_checkins: MeetupCheckinsTable;
  support_threads: SupportThreadsTable;
  support_messages: SupportMessagesTable;
  feature_flags: FeatureFlagsTable;
  feature_usage: FeatureUsageTable;
  billing_customers: BillingCustomersTable;
  payment_methods: PaymentMethodsTable;
  subscriptions: SubscriptionsTable;
  plans: PlansTable;
  payments: PaymentsTable;
  payment_refunds: PaymentRefundsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_events: WebhookEventsTable;
  boosts: BoostsTable;
  grid_changes: GridChangesTable;
  boost_credits: BoostCreditsTable;
  boost_views: BoostViewsTable;
}

/** One boost run: 30 minutes first in nearby grids, the day's included one or a bought credit. */
/** Who a write touched, for the grid's rules in memory (migration 20261130T0100, modules/discovery/memory.ts). */
export interface GridChangesTable {
  /** The writing transaction (xid8, read as text). */
  txid: ColumnType<string, never, never>;
  /** A user id, or '*': drop everything. */
  user_id: string;
  what: string;
  at: ColumnType<Date, never, never>;
}

export interface BoostsTable {
  id: string;
  user_id: string;
  source: 'included' | 'credit';
  started_at: Timestamp;
  ends_at: Timestamp;
}
/** An extra boost bought by one-time payment; used when a boost spends it. */
export interface BoostCreditsTable {
  id: string;
  user_id: string;
  payment_id: string | null;
  created_at: Timestamp;
  boost_id: string | null;
  used_at: Timestamp | null;
}
/** A distinct viewer whose grid showed the boosted man at its top during the boost. */
export interface BoostViewsTable {
  boost_id: string;
  viewer_id: string;
  seen_at: Timestamp;
}

type TierName = 'free' | 'premium' | 'platinum';
/** A plan on sale (admin subscriptions/pricing edits it); a subscription keeps its own amount. */
export interface PlansTable {
  id: string;
  tier: 'premium' | 'platinum';
  name: string;
  price_cents: number;
  currency: Generated<string>;
  interval: Generated<'monthly'>;
  features: Json<string[]>;
  active: Generated<boolean>;
  sort: Generated<number>;
  updated_at: Generated<Date>;
}
export interface FeatureFlagsTable {
  id: string;
  is_enabled: Generated<boolean>;
  is_premium: Generated<boolean>;
  limit: number | null;
  min_tier: Generated<TierName>;
  tier_limits: Json<Record<TierName, number> | null> | null;
  updated_at: Generated<Date>;
}
export interface FeatureUsageTable {
  user_id: string;
  feature_id: string;
  day: ColumnType<Date | string, string, string>;
  count: number;
}
export interface BillingCustomersTable {
  user_id: string;
  provider: string;
  customer_id: string;
  created_at: Timestamp;
}
export interface PaymentMethodsTable {
  id: string;
  user_id: string;
  provider_card_id: string;
  brand: string;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  is_default: Generated<boolean>;
  created_at: Timestamp;
}
export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';
export interface SubscriptionsTable {
  id: string;
  user_id: string;
  customer_id: string;
  plan_id: string;
  plan_name: string;
  status: SubscriptionStatus;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  next_billing_date: Timestamp | null;
  amount: number;
  currency: string;
  payment_method_id: string | null;
  cancel_at_period_end: Generated<boolean>;
  canceled_at: Timestamp | null;
  failed_attempts: Generated<number>;
  next_retry_at: Timestamp | null;
  provider_subscription_id: string | null;
  /** Given by staff: no card, no charge, never renewed; it lapses at its period's end. */
  comp: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface PaymentsTable {
  id: string;
  /** Null once the payer's account is erased: the record stays for the books, naming no one. */
  user_id: string | null;
  subscription_id: string | null;
  kind: 'subscription' | 'renewal' | 'one_time' | 'proration';
  status: 'completed' | 'failed';
  amount: number;
  currency: string;
  provider_payment_id: string | null;
  note: string | null;
  created_at: Timestamp;
}
/** A refund staff made of a payment through the provider; `failed` ones give nothing back. */
export interface PaymentRefundsTable {
  id: string;
  payment_id: string;
  idempotency_key: string;
  amount: number;
  currency: string;
  reason: string;
  status: 'pending' | 'completed' | 'failed';
  provider_refund_id: string | null;
  canceled_subscription: Generated<boolean>;
  admin_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  status_code: number;
  response: Json<unknown>;
  created_at: Timestamp;
}
export interface WebhookEventsTable {
  event_id: string;
  type: string;
  received_at: Timestamp;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
