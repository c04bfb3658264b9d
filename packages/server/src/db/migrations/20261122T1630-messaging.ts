import { type Kysely, sql } from 'kysely';

// Issue 5: messaging. Messages carry a global `seq` (the clients' catch-up cursor) and a client
// id unique per sender (a retried send finds its first row). Per-user conversation state (unread,
// deleted for me) lives on conversations as _a/_b columns, matching its sorted user_a < user_b.
// Message photos are a table of their own so they never count toward profile photos.
// live_connections holds every open socket of every instance: presence is "any fresh row".
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_photos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('message_photos_user').on('message_photos').column('user_id').execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('receiver_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('text','photo')`))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('photo_id', 'text', (c) => c.references('message_photos.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('read_at', 'timestamptz')
    .addUniqueConstraint('messages_client', ['sender_id', 'client_id'])
    .addCheckConstraint('messages_not_self', sql`sender_id <> receiver_id`)
    .execute();
  await db.schema.createIndex('messages_conversation_seq').on('messages').columns(['conversation_id', 'seq']).execute();
  await db.schema.createIndex('messages_receiver_seq').on('messages').columns(['receiver_id', 'seq']).execute();
  await db.schema.createIndex('messages_sender_seq').on('messages').columns(['sender_id', 'seq']).execute();

  await db.schema
    .alterTable('conversations')
    .addColumn('unread_a', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unread_b', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_a', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deleted_b', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_message_id', 'text')
    .execute();
  await db.schema.createIndex('conversations_user_a').on('conversations').columns(['user_a', 'last_activity']).execute();

  await db.schema
    .createTable('message_counters')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('message_counters_pk', ['user_id', 'day'])
    .execute();

  await db.schema
    .createTable('live_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('connected_at', 'timestamptz', (c) => c.notNull())
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_connections_user').on('live_connections').columns(['user_id', 'heartbeat_at']).execute();
  await db.schema.createIndex('live_connections_instance').on('live_connections').column('instance_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('live_connections').execute();
  await db.schema.dropTable('message_counters').execute();
  await db.schema.dropIndex('conversations_user_a').execute();
  await db.schema
    .alterTable('conversations')
    .dropColumn('unread_a')
    .dropColumn('unread_b')
    .dropColumn('deleted_a')
    .dropColumn('deleted_b')
    .dropColumn('last_message_id')
    .execute();
  await db.schema.dropTable('messages').execute();
  await db.schema.dropTable('message_photos').execute();
}
