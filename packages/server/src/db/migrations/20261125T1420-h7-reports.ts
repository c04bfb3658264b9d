import { type Kysely, sql } from 'kysely';

// Reports against a member: the report, its screenshots (re-encoded like every photo, kept
// outside the public files), the reported messages copied in as evidence (so deleting them, or
// a block deleting the conversation, keeps them here), and staff's items for a man several
// members reported. A report goes with either man's account. Values are written out, not read
// from core: a migration never changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reported_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`category in ('harassment','spam','scam','fake_profile','inappropriate_content','underage','violence','other')`,
        ),
    )
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending','reviewed','actioned','dismissed')`),
    )
    .addColumn('blocked', 'boolean', (c) => c.notNull())
    .addColumn('reviewed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('user_reports_not_self', sql`reporter_id <> reported_id`)
    .execute();
  await db.schema.createIndex('user_reports_reporter').on('user_reports').columns(['reporter_id', 'created_at']).execute();
  await db.schema.createIndex('user_reports_reported').on('user_reports').columns(['reported_id', 'created_at']).execute();
  await db.schema.createIndex('user_reports_status').on('user_reports').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('report_screenshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('report_id', 'text', (c) => c.references('user_reports.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_screenshots_user').on('report_screenshots').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('report_screenshots_report').on('report_screenshots').column('report_id').execute();

  await db.schema
    .createTable('report_messages')
    .addColumn('report_id', 'text', (c) => c.notNull().references('user_reports.id').onDelete('cascade'))
    // No foreign key: the message may be deleted; its copy here stays.
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('from_reported', 'boolean', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_messages_pk', ['report_id', 'message_id'])
    .execute();

  await db.schema
    .createTable('safety_flags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('suspicious_behavior')`))
    .addColumn('reporters', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open','closed')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // One open item a man: further reports while staff look at it do not pile up new ones.
  await sql`create unique index safety_flags_open on safety_flags (user_id, kind) where status = 'open'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('safety_flags').execute();
  await db.schema.dropTable('report_messages').execute();
  await db.schema.dropTable('report_screenshots').execute();
  await db.schema.dropTable('user_reports').execute();
}
