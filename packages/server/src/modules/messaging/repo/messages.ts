import { type ChatPhoto, type Message, TIER_LIMITS } from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

// The SQL of messages: reading pages, sending (fmk_send_message), receipts and delivery marks.

const messageColumns = [
  'm.id',
  'm.seq',
  'm.conversation_id',
  'm.sender_id',
  'm.receiver_id',
  'm.client_id',
  'm.type',
  'm.content',
  'm.created_at',
  'm.delivered_at',
  'm.read_at',
  'p.id as photo_id',
  'p.storage_key',
  'p.width',
  'p.height',
  'p.sensitive as photo_sensitive',
] as const;

function messagesQuery(db: Db) {
  return (
    db
      .selectFrom('messages as m')
      .leftJoin('message_photos as p', 'p.id', 'm.photo_id')
      // The photo's moderation item (one per photo, by its unique key): the model's nudity score.
      .leftJoin('moderation_items as mi', (j) => j.on('mi.content_type', '=', 'chat_photo').onRef('mi.content_id', '=', 'p.id'))
      .select(messageColumns)
      .select(sql<number | null>`(mi.ai_analysis->>'nudity')::float8`.as('photo_nudity'))
  );
}

export type MessageRow = Awaited<ReturnType<ReturnType<typeof messagesQuery>['executeTakeFirstOrThrow']>>;

/** A row of fmk_send_message: the message, whether this call created it, and what the send needs next. */
export type SentMessageRow = MessageRow & { created: boolean; sender_name: string | null; other_online: boolean | null };

/** Messages per day by tier (core's TIER_LIMITS): the parameter fmk_send_message checks against. */
const MESSAGE_LIMITS = JSON.stringify(
  Object.fromEntries(Object.entries(TIER_LIMITS).map(([tier, limits]) => [tier, limits.messagesPerDay])),
);

export interface NewMessage {
  id: string;
  senderId: string;
  conversationId: string;
  clientId: string;
  type: string;
  content: string;
  photoId: string | null;
  now: Date;
  /** The sender's UTC day (YYYY-MM-DD): the day his message counter counts. */
  day: string;
  /** Messages per day by tier from the flag store; the seeded table when not given (tests). */
  limits?: Record<string, number>;
}

/**
 * Sends a message in one statement: fmk_send_message, PL/pgSQL the migrations create (the
 * checks, locks and writes in one round trip). Its definition as the database has it is
 * send-message.sql beside this file; send-message.test.ts holds the database to that file and the
 * function's tier rule to core's, case by case. Refusals are raised as SQLSTATEs of class FK
 * (FK401 sender, FK404 conversation, FK403 he takes messages from matches only, FK429 limit with the tier, FK400 photo, FK409 client id).
 */
export async function sendMessage(db: Db, m: NewMessage): Promise<SentMessageRow | undefined> {
  const res = await sql<SentMessageRow>`select * from fmk_send_message(${m.id}, ${m.senderId}, ${m.conversationId},
    ${m.clientId}, ${m.type}, ${m.content}, ${m.photoId}, ${m.now}, ${m.day}::date, ${m.limits ? JSON.stringify(m.limits) : MESSAGE_LIMITS}::jsonb)`.execute(
    db,
  );
  return res.rows[0];
}

export function messageById(db: Db, id: string): Promise<MessageRow | undefined> {
  return messagesQuery(db).where('m.id', '=', id).executeTakeFirst();
}

export function messageByClientId(db: Db, senderId: string, clientId: string): Promise<MessageRow | undefined> {
  return messagesQuery(db).where('m.sender_id', '=', senderId).where('m.client_id', '=', clientId).executeTakeFirst();
}

/** One page of a conversation, newest `limit` before `before`, returned oldest first. */
export async function messagePage(db: Db, conversationId: string, before: number | undefined, limit: number) {
  let q = messagesQuery(db).where('m.conversation_id', '=', conversationId);
  if (before !== undefined) q = q.where('m.seq', '<', before);
  const rows = await q
    .orderBy('m.seq', 'desc')
    .limit(limit + 1)
    .execute();
  return { rows: rows.slice(0, limit).reverse(), hasMore: rows.length > limit };
}

/** Every message to or from the user after `after`, ascending (the catch-up after a reconnect). */
export async function messagesSince(db: Db, me: string, after: number, limit: number) {
  const rows = await messagesQuery(db)
    .where((w) => w.or([w('m.sender_id', '=', me), w('m.receiver_id', '=', me)]))
    .where('m.seq', '>', after)
    .orderBy('m.seq')
    .limit(limit + 1)
    .execute();
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/**
 * The message as `viewerId` sees it. `receiptsFor(receiverId)` tells whether the sender may
 * see 'read' on messages to that receiver (showsReadReceipts); the receiver always knows.
 * `photos` is the viewer's: URLs signed for him, and whether his filtering withholds a photo he received.
 */
export function toMessage(
  r: MessageRow,
  viewerId: string,
  photos: { url(photoId: string): string; withheld(sensitive: boolean, nudity: number | null): boolean },
  receiptsFor: (receiverId: string) => boolean,
): Message {
  const readVisible = r.read_at !== null && (viewerId !== r.sender_id || receiptsFor(r.receiver_id));
  const status = readVisible ? 'read' : r.delivered_at || r.read_at ? 'delivered' : 'sent';
  const mine = viewerId === r.sender_id;
  const sensitive = r.photo_sensitive === true;
  const nudity = r.photo_nudity != null ? Number(r.photo_nudity) : null;
  const withheld = !mine && photos.withheld(sensitive, nudity);
  const photo: ChatPhoto | undefined =
    r.photo_id && r.storage_key && r.width !== null && r.height !== null
      ? {
          id: r.photo_id,
          url: withheld ? null : photos.url(r.photo_id),
          width: r.width,
          height: r.height,
          sensitive,
          ...(withheld ? { withheld: true } : {}),
          // For the receiver's strict mode (core strictlyHidden); a sent message has no score yet.
          ...(!mine && nudity !== null ? { nudity } : {}),
        }
      : undefined;
  return {
    id: r.id,
    seq: Number(r.seq),
    conversationId: r.conversation_id,
    senderId: r.sender_id,
    receiverId: r.receiver_id,
    clientId: r.client_id,
    type: r.type,
    content: r.content,
    timestamp: r.created_at.toISOString(),
    status,
    metadata: photo ? { photo } : {},
  };
}

/** users' show_read_receipts (true where no settings row exists yet, its default). */
export async function readReceiptSettings(db: Db, userIds: readonly string[]): Promise<Map<string, boolean>> {
  const out = new Map(userIds.map((id) => [id, true]));
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('user_settings')
    .select(['user_id', 'show_read_receipts'])
    .where('user_id', 'in', [...userIds])
    .execute();
  for (const r of rows) out.set(r.user_id, r.show_read_receipts);
  return out;
}

/** Messages to `receiverId` in one conversation, delivered up to seq `upTo`. */
export interface DeliveryMark {
  receiverId: string;
  conversationId: string;
  upTo: number;
}

/**
 * Marks messages delivered, many (receiver, conversation, up to) marks in one statement; returns
 * per mark that changed anything the highest seq newly marked and its sender.
 */
export async function markDelivered(
  db: Db,
  marks: readonly DeliveryMark[],
  at: Date,
): Promise<Array<DeliveryMark & { senderId: string }>> {
  if (marks.length === 0) return [];
  // unnest, not jsonb_to_recordset: the planner knows unnest's row count from the arrays (a batch
  // is a few marks) and probes the index for each; it took jsonb's for 100 rows and scanned the
  // whole table for them (2.6 ms against 0.2 ms at 20 k messages, and growing with the table).
  const { rows } = await sql<{ conversation_id: string; receiver_id: string; sender_id: string; seq: string | number }>`
    update messages m set delivered_at = ${at}
      from unnest(${marks.map((m) => m.receiverId)}::text[], ${marks.map((m) => m.conversationId)}::text[],
                  ${marks.map((m) => m.upTo)}::bigint[]) as d(r, c, u)
     where m.conversation_id = d.c and m.receiver_id = d.r and m.seq <= d.u and m.delivered_at is null
    returning m.conversation_id, m.receiver_id, m.sender_id, m.seq`.execute(db);
  const best = new Map<string, DeliveryMark & { senderId: string }>();
  for (const r of rows) {
    const key = `${r.receiver_id}:${r.conversation_id}`;
    const seq = Number(r.seq);
    const prev = best.get(key);
    if (!prev || seq > prev.upTo)
      best.set(key, { receiverId: r.receiver_id, conversationId: r.conversation_id, upTo: seq, senderId: r.sender_id });
  }
  return [...best.values()];
}

/** The storage keys of the photos the user sent in messages (erasure removes the files). */
export async function messagePhotoKeysOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('message_photos').select('storage_key').where('user_id', '=', userId).execute();
  return rows.map((r) => r.storage_key);
}
