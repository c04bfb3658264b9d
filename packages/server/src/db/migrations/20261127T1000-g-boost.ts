import { type Kysely, sql } from 'kysely';

// Boost (Platinum): each boost run (30 minutes, the day's included one or a bought credit), the
// credits bought by one-time payment, and the distinct viewers each boost was shown to. The flag
// store gains `boostsPerDay`, the boosts a UTC day includes per tier. Values are written out, not
// read from core: a migration never changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into feature_flags (id, is_premium, min_tier, tier_limits)
    values ('boostsPerDay', false, 'free', ${JSON.stringify({ free: 0, premium: 0, platinum: 1 })}::jsonb)`.execute(db);

  await db.schema
    .createTable('boosts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('included','credit')`))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('boosts_ends_after_start', sql`ends_at > started_at`)
    .execute();
  // His boosts by time (the running one, the day's included ones).
  await db.schema.createIndex('boosts_user_started').on('boosts').columns(['user_id', 'started_at']).execute();
  // The grid reads the boosts running now: a range scan of the few whose end is still ahead.
  await db.schema.createIndex('boosts_ends').on('boosts').column('ends_at').execute();

  await db.schema
    .createTable('boost_credits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The payment stays for the books when his account goes; the credit goes with him.
    .addColumn('payment_id', 'text', (c) => c.references('payments.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('boost_id', 'text', (c) => c.unique().references('boosts.id').onDelete('set null'))
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`create index boost_credits_unused on boost_credits (user_id, created_at) where used_at is null`.execute(db);

  await db.schema
    .createTable('boost_views')
    .addColumn('boost_id', 'text', (c) => c.notNull().references('boosts.id').onDelete('cascade'))
    .addColumn('viewer_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('boost_views_pk', ['boost_id', 'viewer_id'])
    .execute();
  await db.schema.createIndex('boost_views_viewer').on('boost_views').column('viewer_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['boost_views', 'boost_credits', 'boosts']) await db.schema.dropTable(t).execute();
  await sql`delete from feature_usage where feature_id = 'boostsPerDay'`.execute(db);
  await sql`delete from feature_flags where id = 'boostsPerDay'`.execute(db);
}
