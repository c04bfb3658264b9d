import { type Kysely, sql } from 'kysely';

// Photo moderation (issue 17): one item per scored photo, with the model's and the text rules'
// scores (ai_analysis). An item starts 'pending' when it needs staff (a held profile photo) and
// 'approved' (by nobody: moderator_id null) when the scores let it through. photos.held hides a
// profile photo from everyone but its owner while its item is pending; message_photos.sensitive
// tells a receiver's app to blur it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('photos')
    .addColumn('held', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('message_photos')
    .addColumn('sensitive', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable('moderation_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', (c) => c.notNull().check(sql`content_type in ('profile_photo', 'chat_photo')`))
    .addColumn('content_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The photo's file, for staff to look at; null once a rejection removed it.
    .addColumn('storage_key', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'approved', 'rejected')`))
    .addColumn('flagged_reason', 'text')
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('ai_analysis', 'jsonb', (c) => c.notNull())
    .addColumn('moderator_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('moderator_notes', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('reviewed_at', 'timestamptz')
    .addUniqueConstraint('moderation_items_content', ['content_type', 'content_id'])
    .execute();
  await db.schema
    .createIndex('moderation_items_pending')
    .on('moderation_items')
    .columns(['created_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('moderation_items').execute();
  await db.schema.alterTable('message_photos').dropColumn('sensitive').execute();
  await db.schema.alterTable('photos').dropColumn('held').execute();
}
