import { type Kysely, sql } from 'kysely';

// Foundation tables (issue 2). Nested profile sections are jsonb validated by core's zod schemas;
// everything queried or constrained is a real column.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('google_sub', 'text', (c) => c.unique())
    .addColumn('anonymous_id', 'text', (c) => c.unique())
    .addColumn('display_name', 'text')
    .addColumn('photo_url', 'text')
    .addColumn('subscription_tier', 'text', (c) =>
      c.notNull().defaultTo('free').check(sql`subscription_tier in ('free','premium','platinum')`),
    )
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('onboarding_complete', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_beta_user', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('has_lifetime_premium', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('beta_joined_at', 'timestamptz')
    .addColumn('age', 'integer', (c) => c.notNull().defaultTo(18).check(sql`age >= 18 and age <= 99`))
    .addColumn('gender', 'text')
    .addColumn('bio', 'text')
    .addColumn('interests', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('intentions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('selected_features', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('tribes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('current_mode', 'text', (c) => c.notNull().defaultTo('dating').check(sql`current_mode in ('dating','now')`))
    .addColumn('app_mode', 'text', (c) => c.notNull().defaultTo('both').check(sql`app_mode in ('both','fuck','marry')`))
    .addColumn('preferences', 'jsonb', (c) => c.notNull())
    .addColumn('stats', 'jsonb', (c) => c.notNull())
    .addColumn('dating_profile', 'jsonb', (c) => c.notNull())
    .addColumn('now_profile', 'jsonb', (c) => c.notNull())
    .addColumn('mode_visibility', 'jsonb', (c) => c.notNull())
    .addColumn('is_online', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_seen', 'timestamptz')
    .addColumn('fcm_token', 'text')
    .addColumn('token_updated', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('use_metric', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('gender_preferences', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('relationship_status_preferences', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('now_mode', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('profile_visibility', 'text', (c) => c.notNull().defaultTo('public'))
    .addColumn('show_online_status', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('show_last_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('show_read_receipts', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('incognito_mode', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('data_sharing', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('location_precision', 'text', (c) => c.notNull().defaultTo('exact'))
    .addColumn('push_notifications_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('email_notifications_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('in_app_notifications_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('location_sharing_consent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_active', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('identity_mappings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('previous_emails', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('previous_anonymous_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('registration_source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('identity_mappings_user').on('identity_mappings').column('user_id').execute();
  await db.schema.createIndex('identity_mappings_email').on('identity_mappings').column('email').execute();

  await db.schema
    .createTable('banned_emails')
    .addColumn('email_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('banned_at', 'timestamptz', (c) => c.notNull())
    .addColumn('banned_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('associated_anonymous_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('is_permanent', 'boolean', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('admin_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('anonymous_id', 'text')
    .addColumn('email', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ip_address', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_created').on('audit_log').column('created_at').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('ip_address', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('auth_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_attempts_key_time').on('auth_attempts').columns(['key', 'created_at']).execute();

  await db.schema
    .createTable('oauth_flows')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_redirect_results')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('prompts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo('General'))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('photos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('photos_user_position').on('photos').columns(['user_id', 'position']).execute();

  await db.schema
    .createTable('admin_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('admin_users')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner','super_admin','admin','moderator')`))
    .addColumn('permissions', 'jsonb')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('last_login', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'admin_users',
    'admin_settings',
    'photos',
    'prompts',
    'auth_redirect_results',
    'oauth_flows',
    'auth_attempts',
    'sessions',
    'audit_log',
    'banned_emails',
    'identity_mappings',
    'user_settings',
    'users',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
