import { type Kysely, sql } from 'kysely';

// Refunds staff make of a payment through the provider (admin payments). A payment keeps its own
// row and amount; what was given back is the sum of its refunds that did not fail. A refund's
// idempotency key is unique per payment, so a retried request refunds once.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending','completed','failed')`))
    .addColumn('provider_refund_id', 'text')
    .addColumn('canceled_subscription', 'boolean', (c) => c.notNull().defaultTo(false))
    // The staff member who made it (the audit row names him too); kept if he leaves.
    .addColumn('admin_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('payment_refunds_key', ['payment_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('payment_refunds_created').on('payment_refunds').column('created_at').execute();
  await db.schema.createIndex('payment_refunds_provider').on('payment_refunds').column('provider_refund_id').execute();
  // The staff list reads every payment newest first.
  await db.schema.createIndex('payments_created').on('payments').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_created').execute();
  await db.schema.dropTable('payment_refunds').execute();
}
