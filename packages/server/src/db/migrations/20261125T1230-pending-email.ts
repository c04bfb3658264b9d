import type { Kysely } from 'kysely';

// Changing the email address: the new address waits in users.pending_email until the person
// opens the link mailed to it; only then does it replace users.email.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pending_email', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('pending_email').execute();
}
