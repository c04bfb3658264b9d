import { type Kysely, sql } from 'kysely';

// Meetup safety (issue 17 item 4): a member's trusted contact (name, email, safe word) and his
// meetup check-ins. A check-in still 'active' past check_in_by is overdue: the sweeper emails
// the contact once (notified_at) and marks it 'overdue'. Values written out, not read from core.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('safety_contacts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('safe_word', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('meetup_checkins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('meeting_who', 'text', (c) => c.notNull())
    .addColumn('place', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('check_in_by', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('active').check(sql`status in ('active','checked_in','overdue','cancelled')`),
    )
    .addColumn('contact_told', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('notified_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('meetup_checkins_user').on('meetup_checkins').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('meetup_checkins_due').on('meetup_checkins').columns(['status', 'check_in_by']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('meetup_checkins').execute();
  await db.schema.dropTable('safety_contacts').execute();
}
