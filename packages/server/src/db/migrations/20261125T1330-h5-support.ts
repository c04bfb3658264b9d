import { type Kysely, sql } from 'kysely';

// Support: bug reports and feedback (with an optional screenshot, re-encoded like every photo),
// and support threads between a member and staff. Everything here is the member's own and goes
// with his account. Values are written out, not read from core: a migration never changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_screenshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_screenshots_user').on('support_screenshots').column('user_id').execute();

  await db.schema
    .createTable('feedback_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('bug','feedback')`))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('new').check(sql`status in ('new','in_review','resolved','closed')`),
    )
    // One screenshot belongs to one report.
    .addColumn('screenshot_id', 'text', (c) => c.unique().references('support_screenshots.id').onDelete('set null'))
    .addColumn('app_version', 'text', (c) => c.notNull())
    .addColumn('browser', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_reports_user').on('feedback_reports').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('feedback_reports_status').on('feedback_reports').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('support_threads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open','answered','closed')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_message_at', 'timestamptz', (c) => c.notNull())
    // Unread state on each side: messages from the other side after these are unread.
    .addColumn('member_read_at', 'timestamptz', (c) => c.notNull())
    .addColumn('staff_read_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('support_threads_user').on('support_threads').columns(['user_id', 'last_message_at']).execute();
  await db.schema.createIndex('support_threads_status').on('support_threads').columns(['status', 'last_message_at']).execute();

  await db.schema
    .createTable('support_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('thread_id', 'text', (c) => c.notNull().references('support_threads.id').onDelete('cascade'))
    .addColumn('from_staff', 'boolean', (c) => c.notNull())
    // The staff member who answered (null for the member's own messages, or staff since removed).
    .addColumn('staff_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_messages_thread').on('support_messages').columns(['thread_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('support_messages').execute();
  await db.schema.dropTable('support_threads').execute();
  await db.schema.dropTable('feedback_reports').execute();
  await db.schema.dropTable('support_screenshots').execute();
}
