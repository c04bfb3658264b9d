import { type Kysely, sql } from 'kysely';

// Issue 4: every selection request by its client id, with the result it got. A retried request
// returns that result and changes nothing (ARCHITECTURE.md: writes a client may retry carry a
// client id). It also counts super selections per day: selections.is_super cannot, since a
// replaced choice keeps its first created_at.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('selection_requests')
    .addColumn('chooser_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('fuck','marry','kill')`))
    .addColumn('is_super', 'boolean', (c) => c.notNull())
    .addColumn('result', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('selection_requests_pk', ['chooser_id', 'client_id'])
    .execute();
  await db.schema
    .createIndex('selection_requests_super')
    .on('selection_requests')
    .columns(['chooser_id', 'created_at'])
    .where(sql.ref('is_super'), '=', true)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('selection_requests').execute();
}
