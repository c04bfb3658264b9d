import { type Kysely, sql } from 'kysely';

// Issue 7, cruise: timed availability sessions and their counters, proposed and approved
// cruising spots with check-ins, and group events with attendees and comments.
//
// A session is over when now >= ends_at whether or not anything ran (every read filters on it);
// a sweeper later sets ended_at and adds the minutes to cruise_counters. At most one open
// session per user (partial unique index), so two racing starts cannot both insert.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cruise_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .addColumn('minutes', 'integer')
    .addColumn('end_reason', 'text', (c) => c.check(sql`end_reason in ('user','expired')`))
    .addColumn('right_now', 'text')
    .execute();
  await sql`create unique index cruise_sessions_open on cruise_sessions (user_id) where ended_at is null`.execute(db);
  // The sweeper's scan: open sessions by end time.
  await sql`create index cruise_sessions_due on cruise_sessions (ends_at) where ended_at is null`.execute(db);

  await db.schema
    .createTable('cruise_counters')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull().check(sql`period in ('day','week')`))
    .addColumn('period_start', 'timestamptz')
    .addColumn('starts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_sessions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_start_at', 'timestamptz')
    .execute();

  // Nearby cruisers walk only located users in now mode: a partial KNN index keeps the walk off
  // the (far more numerous) dating-mode users.
  await sql`create index user_locations_now_geo on user_locations using gist (geo) where mode = 'now' and is_active`.execute(db);

  await db.schema
    .createTable('cruising_spots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('park','beach','sauna','bar','club','gym','woods','other')`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending','approved','rejected')`))
    .addColumn('proposed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reviewed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cruising_spots_status_lat').on('cruising_spots').columns(['status', 'lat']).execute();

  await db.schema
    .createTable('spot_checkins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('spot_id', 'text', (c) => c.notNull().references('cruising_spots.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('checked_in_at', 'timestamptz', (c) => c.notNull())
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('spot_checkins_spot_until').on('spot_checkins').columns(['spot_id', 'until']).execute();
  await db.schema.createIndex('spot_checkins_user_until').on('spot_checkins').columns(['user_id', 'until']).execute();

  await db.schema
    .createTable('group_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('spot_id', 'text', (c) => c.references('cruising_spots.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('place_name', 'text', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('scheduled').check(sql`status in ('scheduled','cancelled')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('cancelled_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('group_events_ends_lat').on('group_events').columns(['ends_at', 'lat']).execute();

  await db.schema
    .createTable('event_attendees')
    .addColumn('event_id', 'text', (c) => c.notNull().references('group_events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_attendees_pk', ['event_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('event_comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('group_events.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_comments_event').on('event_comments').columns(['event_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'event_comments',
    'event_attendees',
    'group_events',
    'spot_checkins',
    'cruising_spots',
    'cruise_counters',
    'cruise_sessions',
  ])
    await db.schema.dropTable(t).execute();
  await sql`drop index if exists user_locations_now_geo`.execute(db);
}
