import { type Kysely, sql } from 'kysely';

// The settings store (issue 16, spec sections 3 and 6): the privacy row of the tier table, the
// notification switches per kind and channel, and the five safety groups, one column per switch
// on user_settings (defaults: core's DEFAULT_SETTINGS, docs/settings.md). Listed here, not
// imported, so that this migration never changes.

const BOOLEANS: [string, boolean][] = [
  // privacy
  ['share_distance', true],
  ['cruising_private', false],
  ['health_private', false],
  ['activity_private', false],
  // notifications: <kind>_<channel>
  ['notify_messages_push', true],
  ['notify_messages_email', false],
  ['notify_messages_in_app', true],
  ['notify_matches_push', true],
  ['notify_matches_email', true],
  ['notify_matches_in_app', true],
  ['notify_likes_push', true],
  ['notify_likes_email', false],
  ['notify_likes_in_app', true],
  ['notify_health_reminders_push', true],
  ['notify_health_reminders_email', false],
  ['notify_health_reminders_in_app', true],
  ['notify_safety_push', true],
  ['notify_safety_email', true],
  ['notify_safety_in_app', true],
  // contentFiltering
  ['content_filtering_enabled', true],
  ['strict_mode', false],
  ['hide_explicit_content', false],
  ['blur_sensitive_images', true],
  // locationSafety
  ['share_location_enabled', true],
  ['share_only_with_matches', false],
  ['hide_exact_location', true],
  ['location_reminders', true],
  // communicationSafety
  ['block_unverified_users', false],
  ['require_phone_verification', false],
  ['auto_delete_unverified_chats', false],
  ['link_prevention_enabled', true],
  // meetupSafety
  ['public_place_reminders', true],
  ['friend_notification_enabled', false],
  ['emergency_contact_enabled', false],
  ['safe_word_enabled', false],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  let t = db.schema.alterTable('user_settings').addColumn('messages_from', 'text', (c) => c.notNull().defaultTo('everyone'));
  for (const [name, value] of BOOLEANS) t = t.addColumn(name, 'boolean', (c) => c.notNull().defaultTo(value));
  await t.execute();
  await sql`alter table user_settings add constraint user_settings_messages_from_check check (messages_from in ('everyone', 'matches'))`.execute(
    db,
  );
  await sql`update user_settings set profile_visibility = 'public' where profile_visibility not in ('public', 'matches')`.execute(
    db,
  );
  await sql`alter table user_settings add constraint user_settings_profile_visibility_check check (profile_visibility in ('public', 'matches'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_settings drop constraint user_settings_profile_visibility_check`.execute(db);
  await sql`alter table user_settings drop constraint user_settings_messages_from_check`.execute(db);
  let t = db.schema.alterTable('user_settings').dropColumn('messages_from');
  for (const [name] of BOOLEANS) t = t.dropColumn(name);
  await t.execute();
}
