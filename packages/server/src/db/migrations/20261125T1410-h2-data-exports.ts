import { type Kysely, sql } from 'kysely';

// 'Download my data' (GDPR art. 20): one row per archive asked for. The archive itself is a file
// in storage (exports/<user>/<id>.zip), never served by the public file route; the row keeps the
// progress the web shows, and stays after the file is deleted (24 h after it is ready) so the
// daily limit can count it. At most one archive is being built per user (the partial unique index).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('building', 'ready', 'failed', 'expired')`))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storage_key', 'text')
    .addColumn('bytes', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ready_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('data_exports_user').on('data_exports').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createIndex('data_exports_one_building')
    .on('data_exports')
    .column('user_id')
    .unique()
    .where(sql.ref('status'), '=', 'building')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_exports').execute();
}
