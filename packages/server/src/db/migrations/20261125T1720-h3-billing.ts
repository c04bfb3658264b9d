import { type Kysely, sql } from 'kysely';

// Billing (issue 18): the feature-flag store and its daily usage, the payment provider's
// customer per user, cards (a provider's token and display fields, never a card number),
// subscriptions, payments, idempotency keys and processed webhook events. Values are written
// out, not read from core: a migration never changes.
const FLAGS: [string, boolean, string, Record<string, number> | null][] = [
  ['clickableProfiles', false, 'free', { free: 5, premium: 25, platinum: -1 }],
  ['messagesPerDay', false, 'free', { free: 5, premium: 50, platinum: -1 }],
  ['photos', false, 'free', { free: 3, premium: 8, platinum: 20 }],
  ['supersPerDay', false, 'free', { free: 1, premium: 5, platinum: -1 }],
  ['cruiseSessions', false, 'free', { free: 1, premium: 1, platinum: -1 }],
  ['whoLikesYou', true, 'premium', null],
  ['advancedFilters', true, 'premium', null],
  ['incognito', true, 'premium', null],
  ['readReceipts', true, 'premium', null],
  ['videoCall', true, 'premium', null],
  ['privacyControls', true, 'premium', null],
  ['messageBeforeMatch', true, 'platinum', null],
  ['boost', true, 'platinum', null],
  ['advancedPrivacy', true, 'platinum', null],
  ['prioritySupport', true, 'platinum', null],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('feature_flags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('is_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_premium', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('limit', 'integer', (c) => c.check(sql`"limit" >= -1`))
    .addColumn('min_tier', 'text', (c) => c.notNull().defaultTo('free').check(sql`min_tier in ('free','premium','platinum')`))
    .addColumn('tier_limits', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  for (const [id, isPremium, minTier, limits] of FLAGS) {
    await sql`insert into feature_flags (id, is_premium, min_tier, tier_limits)
      values (${id}, ${isPremium}, ${minTier}, ${limits ? JSON.stringify(limits) : null}::jsonb)`.execute(db);
  }
  await db.schema
    .createTable('feature_usage')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('feature_id', 'text', (c) => c.notNull().references('feature_flags.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('feature_usage_pk', ['user_id', 'feature_id', 'day'])
    .execute();

  await db.schema
    .createTable('billing_customers')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('payment_methods')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_card_id', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('expiry_month', 'integer', (c) => c.notNull())
    .addColumn('expiry_year', 'integer', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_methods_user').on('payment_methods').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('plan_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active','past_due','canceled')`))
    .addColumn('current_period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('current_period_end', 'timestamptz', (c) => c.notNull())
    .addColumn('next_billing_date', 'timestamptz')
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('payment_method_id', 'text', (c) => c.references('payment_methods.id').onDelete('set null'))
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('canceled_at', 'timestamptz')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_retry_at', 'timestamptz')
    .addColumn('provider_subscription_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user').on('subscriptions').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('subscriptions_due').on('subscriptions').columns(['status', 'current_period_end']).execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subscription_id', 'text', (c) => c.references('subscriptions.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('subscription','renewal','one_time','proration')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('completed','failed')`))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('provider_payment_id', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_user').on('payments').columns(['user_id', 'created_at']).execute();

  // A retried write answers what the first one answered (ARCHITECTURE: idempotent writes).
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema
    .createTable('webhook_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'webhook_events',
    'idempotency_keys',
    'payments',
    'subscriptions',
    'payment_methods',
    'billing_customers',
    'feature_usage',
    'feature_flags',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
