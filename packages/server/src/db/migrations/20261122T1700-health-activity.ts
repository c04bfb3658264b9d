import { type Kysely, sql } from 'kysely';

// Issue 6: health and activity, the most sensitive data in the product. Every record (medication,
// medication log, STI screening, contact, activity log) is one row of private_records holding only
// its id, owner, kind, creation time and an AES-256-GCM payload under the owner's data key; the
// key itself is stored wrapped under the server's HEALTH_KEY (health_keys). Dates, names and
// results exist only inside payloads: lists are decrypted and ordered in the server.
// The reminder scheduler needs a little plaintext: the user's time zone, each active daily
// medication's next reminder instant, and one row per dose reminded (its unique key is what
// makes a reminder go out once across server instances).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('health_keys')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('key_version', 'integer', (c) => c.notNull())
    .addColumn('wrapped_key', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('health_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('private_records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('medication','medication_log','screening','contact','activity_log')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('payload', 'bytea', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('private_records_user_kind').on('private_records').columns(['user_id', 'kind']).execute();

  await db.schema
    .createTable('medication_schedules')
    .addColumn('medication_id', 'text', (c) => c.primaryKey().references('private_records.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('next_due_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('medication_schedules_due').on('medication_schedules').column('next_due_at').execute();

  await db.schema
    .createTable('medication_reminders_sent')
    .addColumn('medication_id', 'text', (c) => c.notNull().references('private_records.id').onDelete('cascade'))
    .addColumn('dose_date', 'date', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('medication_reminders_sent_pk', ['medication_id', 'dose_date'])
    .execute();
  await db.schema.createIndex('medication_reminders_sent_at').on('medication_reminders_sent').column('sent_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('medication_reminders_sent').execute();
  await db.schema.dropTable('medication_schedules').execute();
  await db.schema.dropTable('private_records').execute();
  await db.schema.dropTable('health_settings').execute();
  await db.schema.dropTable('health_keys').execute();
}
