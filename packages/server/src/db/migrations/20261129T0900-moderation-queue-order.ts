import type { Kysely } from 'kysely';

// The moderation queues are paged (a page of the approved queue can be far back: every scored photo
// has an item). One index on (status, created_at, id) serves each queue's order, the pending read
// forwards and the decided backwards, so a page never sorts the whole table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('moderation_items_queue').on('moderation_items').columns(['status', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('moderation_items_queue').execute();
}
