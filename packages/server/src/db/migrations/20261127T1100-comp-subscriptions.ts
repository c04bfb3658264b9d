import type { Kysely } from 'kysely';

// A complimentary subscription: a tier staff gave, with no card and no charge. It grants its
// plan's tier until its period's end like a paid one, is never renewed, and then lapses.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('subscriptions')
    .addColumn('comp', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('comp').execute();
}
