import { type Kysely, sql } from 'kysely';

// Verifying a phone number: users.phone_number (E.164, private to its owner) and
// users.phone_verified_at (null until the texted code is typed back: the verified badge). A
// number is unique among verified numbers only: an unverified one may sit on two accounts until
// one of them proves it holds the phone, so adding a number never tells whether another account
// uses it. The code waiting for a user is kept as an HMAC (a six-digit code's bare hash would be
// undone in a moment), with its tries.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('phone_number', 'text').addColumn('phone_verified_at', 'timestamptz').execute();
  await db.schema
    .createIndex('users_verified_phone')
    .on('users')
    .column('phone_number')
    .unique()
    .where(sql.ref('phone_verified_at'), 'is not', null)
    .execute();
  await db.schema
    .createTable('phone_codes')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('phone_codes').execute();
  await db.schema.dropIndex('users_verified_phone').execute();
  await db.schema.alterTable('users').dropColumn('phone_verified_at').dropColumn('phone_number').execute();
}
