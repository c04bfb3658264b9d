import { type Kysely, sql } from 'kysely';

// The plans move into the database so staff can edit price, features and whether a plan is sold
// (admin subscriptions/pricing). A subscription keeps its own amount, so an edit reaches new
// checkouts only. Seeded with the spec's two plans (section 9) as they were in code.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tier', 'text', (c) => c.notNull().check(sql`tier in ('premium','platinum')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('interval', 'text', (c) => c.notNull().defaultTo('monthly').check(sql`interval in ('monthly')`))
    .addColumn('features', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  const seed = [
    {
      id: 'premium-monthly',
      tier: 'premium',
      name: 'Premium',
      price_cents: 999,
      sort: 1,
      features: [
        'Unlimited swipes',
        'See who likes you',
        'Advanced filters',
        'Read receipts',
        'Incognito browsing',
        'Up to 8 photos',
      ],
    },
    {
      id: 'platinum-monthly',
      tier: 'platinum',
      name: 'Platinum',
      price_cents: 1999,
      sort: 2,
      features: [
        'Everything in Premium',
        'Profile boost',
        'Priority support',
        'Video calls',
        'Up to 20 photos',
        'Message before matching',
      ],
    },
  ];
  for (const p of seed) {
    await sql`insert into plans (id, tier, name, price_cents, features, sort)
      values (${p.id}, ${p.tier}, ${p.name}, ${p.price_cents}, ${JSON.stringify(p.features)}::jsonb, ${p.sort})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('plans').execute();
}
