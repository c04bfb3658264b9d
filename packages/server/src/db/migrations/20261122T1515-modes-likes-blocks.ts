import { type Kysely, sql } from 'kysely';

// Issue 3: app preferences as columns (queried by later features: cruise, health, activity),
// mode settings as jsonb (null until first saved; read as core's DEFAULT_MODE_SETTINGS), the
// log of profile-mode switches, prompt likes (stored apart from prompts, spec section 3) and blocks.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('cruising_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('health_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('activity_tracking_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('right_now_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('mode_settings', 'jsonb')
    .execute();

  await db.schema
    .createTable('mode_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('from_label', 'text', (c) => c.notNull())
    .addColumn('to_label', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('manual','auto')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('mode_events_user_time').on('mode_events').columns(['user_id', 'created_at']).execute();

  // owner_id is whose answer is liked: one prompt is answered by many users, each liked apart.
  await db.schema
    .createTable('prompt_likes')
    .addColumn('prompt_id', 'text', (c) => c.notNull().references('prompts.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('liker_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('prompt_likes_pk', ['prompt_id', 'owner_id', 'liker_id'])
    .addCheckConstraint('prompt_likes_not_self', sql`owner_id <> liker_id`)
    .execute();
  await db.schema.createIndex('prompt_likes_owner').on('prompt_likes').columns(['owner_id', 'prompt_id']).execute();
  await db.schema.createIndex('prompt_likes_liker').on('prompt_likes').column('liker_id').execute();

  await db.schema
    .createTable('user_blocks')
    .addColumn('blocker_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('user_blocks_pk', ['blocker_id', 'blocked_id'])
    .addCheckConstraint('user_blocks_not_self', sql`blocker_id <> blocked_id`)
    .execute();
  await db.schema.createIndex('user_blocks_blocked').on('user_blocks').columns(['blocked_id', 'blocker_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_blocks').execute();
  await db.schema.dropTable('prompt_likes').execute();
  await db.schema.dropTable('mode_events').execute();
  await db.schema
    .alterTable('users')
    .dropColumn('cruising_enabled')
    .dropColumn('health_enabled')
    .dropColumn('activity_tracking_enabled')
    .dropColumn('right_now_enabled')
    .dropColumn('mode_settings')
    .execute();
}
