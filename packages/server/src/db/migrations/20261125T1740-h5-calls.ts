import { type Kysely, sql } from 'kysely';

// Issue 20: calls. One row per call attempt (the record: who, when, how it ended; the hourly
// attempt limit counts these), its signalling state shared by every instance (offer and answer
// kept for a tab whose bus event could not carry them), and 'call' lines in the chat.
// Values are written out, not read from core: a migration never changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('caller_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('callee_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.references('conversations.id').onDelete('set null'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('video','voice')`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('ringing','active','ended')`))
    .addColumn('outcome', 'text', (c) => c.check(sql`outcome in ('missed','declined','busy','finished','blocked','dropped')`))
    .addColumn('caller_device', 'text', (c) => c.notNull())
    .addColumn('callee_device', 'text')
    .addColumn('offer_sdp', 'text')
    .addColumn('answer_sdp', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('answered_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addCheckConstraint('calls_not_self', sql`caller_id <> callee_id`)
    .addCheckConstraint('calls_ended', sql`(state = 'ended') = (outcome is not null and ended_at is not null)`)
    .execute();
  await db.schema.createIndex('calls_caller_created').on('calls').columns(['caller_id', 'created_at']).execute();
  await db.schema.createIndex('calls_callee_created').on('calls').columns(['callee_id', 'created_at']).execute();
  // The calls not yet ended: "is he on a call" and the ringing sweep read only these.
  await sql`create index calls_open on calls (state, created_at) where state <> 'ended'`.execute(db);

  await sql`alter table messages drop constraint messages_type_check`.execute(db);
  await sql`alter table messages add constraint messages_type_check check (type in ('text','photo','call'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from messages where type = 'call'`.execute(db);
  await sql`alter table messages drop constraint messages_type_check`.execute(db);
  await sql`alter table messages add constraint messages_type_check check (type in ('text','photo'))`.execute(db);
  await db.schema.dropTable('calls').execute();
}
