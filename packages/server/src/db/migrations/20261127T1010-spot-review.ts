import type { Kysely } from 'kysely';

// Staff review of cruising spots in the admin area: the note of the last review (a rejection's
// reason), and an index for the staff list by status, newest first.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cruising_spots').addColumn('review_note', 'text').execute();
  await db.schema.createIndex('cruising_spots_status_created').on('cruising_spots').columns(['status', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('cruising_spots_status_created').execute();
  await db.schema.alterTable('cruising_spots').dropColumn('review_note').execute();
}
