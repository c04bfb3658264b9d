import { type Kysely, sql } from 'kysely';

// Safety alerts: each raised for one member by a real event (a report he made, someone
// messaging him who matches a spam or scam pattern, ...). `dedupe_key` keeps one alert per
// cause (say, one warning about one sender), so a pattern repeated does not flood his list.
// Values are written out, not read from core: a migration never changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('safety_alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) =>
      c
        .notNull()
        .check(sql`type in ('safety_reminder','suspicious_behavior','location_warning','content_flagged','user_reported')`),
    )
    .addColumn('severity', 'text', (c) => c.notNull().check(sql`severity in ('low','medium','high')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('content_id', 'text')
    .addColumn('actions', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('unread').check(sql`state in ('unread','read','resolved','dismissed')`),
    )
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('safety_alerts_user').on('safety_alerts').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('safety_alerts_dedupe').on('safety_alerts').columns(['user_id', 'dedupe_key']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('safety_alerts').execute();
}
