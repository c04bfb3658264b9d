import { type Kysely, sql } from 'kysely';

// Confirming the email address: users.email_verified_at (null until the person opens the link
// mailed to the address) and the one-time links the account flows mail out. A link's token is
// kept only as its SHA-256 hash, so a copy of the database opens no account; a used link keeps
// its row (used_at) so that opening it again says "already used", not "unknown".
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'timestamptz').execute();
  await db.schema
    .createTable('account_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    // The address the link was mailed to: a link confirms that address and no other.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('account_links_user').on('account_links').columns(['user_id', 'purpose']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_links').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
