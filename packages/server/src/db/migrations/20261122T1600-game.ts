import { type Kysely, sql } from 'kysely';

// Issue 4: the game. A selection is one user's fuck or marry toward another (kill is never
// stored); one per pair, a new choice replaces the old. A match is one row per sorted pair.
// A conversation of type 'matched' is opened with the match (messages come with issue 5).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('selections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('chooser_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('fuck','marry')`))
    .addColumn('is_super', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('seen_at', 'timestamptz')
    .addUniqueConstraint('selections_pair', ['chooser_id', 'target_id'])
    .addUniqueConstraint('selections_client', ['chooser_id', 'client_id'])
    .addCheckConstraint('selections_not_self', sql`chooser_id <> target_id`)
    .execute();
  await db.schema.createIndex('selections_target_time').on('selections').columns(['target_id', 'created_at']).execute();

  await db.schema
    .createTable('matches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_a', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_b', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('match_type', 'text', (c) => c.notNull().check(sql`match_type in ('perfect-fuck','perfect-marry','mixed')`))
    .addColumn('user_actions', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('matched_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('matches_pair', ['user_a', 'user_b'])
    .addCheckConstraint('matches_sorted', sql`user_a < user_b`)
    .execute();
  await db.schema.createIndex('matches_user_b').on('matches').column('user_b').execute();

  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_a', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_b', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('matched'))
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('dating'))
    .addColumn('match_type', 'text')
    .addColumn('is_accepted', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_activity', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('conversations_pair', ['user_a', 'user_b'])
    .addCheckConstraint('conversations_sorted', sql`user_a < user_b`)
    .execute();
  await db.schema.createIndex('conversations_user_b').on('conversations').column('user_b').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['conversations', 'matches', 'selections']) await db.schema.dropTable(t).execute();
}
