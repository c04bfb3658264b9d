import { type Conversation, type Message, type Photo, TIER_LIMITS } from '@fmk/core';
import { sql } from 'kysely';
import { otherMemberOf } from '../../db/fragments.ts';
import type { Db } from '../../db/index.ts';
import { blockedEitherWay, notBlocked } from '../../platform/blocks/repo.ts';
import { userCard } from '../../platform/present.ts';
import type { Storage } from '../../platform/storage.ts';

/** True when either user blocked the other. */
export async function isBlocked(db: Db, a: string, b: string): Promise<boolean> {
  const row = await db.selectNoFrom(blockedEitherWay(a, sql.val(b)).as('blocked')).executeTakeFirstOrThrow();
  return Boolean(row.blocked);
}

const mine = (me: string, a: string, b: string) => sql`case when c.user_a = ${me} then ${sql.ref(a)} else ${sql.ref(b)} end`;

/**
 * The viewer's conversations as he sees them: the other participant active and not blocked
 * either way. `id` picks one (deleted for me or not); without it, the list excludes deleted ones.
 */
export async function listConversations(db: Db, me: string, opts: { id?: string; limit: number }) {
  let q = db
    .selectFrom('conversations as c')
    .innerJoin('users as other', (j) => j.on(otherMemberOf('c', me)))
    .leftJoin('messages as m', 'm.id', 'c.last_message_id')
    .select([
      'c.id',
      'c.type',
      'c.mode',
      'c.match_type',
      'c.is_accepted',
      'c.created_at',
      'c.last_activity',
      mine(me, 'c.unread_a', 'c.unread_b').$castTo<number>().as('unread'),
      'other.id as other_id',
      'other.display_name',
      'other.photo_url',
      'other.is_online',
      'm.id as m_id',
      'm.sender_id as m_sender',
      'm.type as m_type',
      'm.content as m_content',
      'm.created_at as m_at',
    ])
    .where('other.is_active', '=', true)
    .where(notBlocked(me, 'other.id'));
  if (opts.id) q = q.where('c.id', '=', opts.id);
  else q = q.where(sql<boolean>`${mine(me, 'c.deleted_a', 'c.deleted_b')} = false`);
  const rows = await q.orderBy('c.last_activity', 'desc').orderBy('c.id').limit(opts.limit).execute();
  return rows.map(
    (r): Omit<Conversation, 'typing'> => ({
      id: r.id,
      type: r.type,
      mode: r.mode,
      matchType: r.match_type,
      isAccepted: r.is_accepted,
      // Online as the presence events to partners tell it (live/presence.ts), whatever his
      // showOnlineStatus: core's presence.see would hide it. Kept as it was; both change together.
      other: { ...userCard({ id: r.other_id, display_name: r.display_name, photo_url: r.photo_url }), isOnline: r.is_online },
      lastMessage:
        r.m_id && r.m_sender && r.m_type && r.m_at
          ? { id: r.m_id, senderId: r.m_sender, type: r.m_type, content: r.m_content ?? '', timestamp: r.m_at.toISOString() }
          : null,
      lastActivity: r.last_activity.toISOString(),
      unreadCount: Number(r.unread),
      createdAt: r.created_at.toISOString(),
    }),
  );
}

export interface ParticipantConversation {
  id: string;
  user_a: string;
  user_b: string;
  otherId: string;
  /** 'a' when the viewer is user_a. */
  side: 'a' | 'b';
}

/**
 * The conversation when the user takes part in it, the other participant is active and
 * neither blocked the other; otherwise null ('Could not find conversation or other participant').
 */
export async function participantConversation(db: Db, id: string, me: string): Promise<ParticipantConversation | null> {
  const row = await db
    .selectFrom('conversations as c')
    .innerJoin('users as other', (j) => j.on(otherMemberOf('c', me)))
    .select(['c.id', 'c.user_a', 'c.user_b', 'other.id as other_id'])
    .where('c.id', '=', id)
    .where('other.is_active', '=', true)
    .where(notBlocked(me, 'other.id'))
    .executeTakeFirst();
  if (!row) return null;
  return { id: row.id, user_a: row.user_a, user_b: row.user_b, otherId: row.other_id, side: row.user_a === me ? 'a' : 'b' };
}

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
] as const;

function messagesQuery(db: Db) {
  return db.selectFrom('messages as m').leftJoin('message_photos as p', 'p.id', 'm.photo_id').select(messageColumns);
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
}

/**
 * Sends a message in one statement: fmk_send_message, PL/pgSQL the migrations create (the
 * checks, locks and writes in one round trip). Its definition as the database has it is
 * send-message.sql beside this file; send-message.test.ts holds the database to that file and the
 * function's tier rule to core's, case by case. Refusals are raised as SQLSTATEs of class FK
 * (FK401 sender, FK404 conversation, FK429 limit with the tier, FK400 photo, FK409 client id).
 */
export async function sendMessage(db: Db, m: NewMessage): Promise<SentMessageRow | undefined> {
  const res = await sql<SentMessageRow>`select * from fmk_send_message(${m.id}, ${m.senderId}, ${m.conversationId},
    ${m.clientId}, ${m.type}, ${m.content}, ${m.photoId}, ${m.now}, ${m.day}::date, ${MESSAGE_LIMITS}::jsonb)`.execute(db);
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
 */
export function toMessage(
  r: MessageRow,
  viewerId: string,
  storage: Storage,
  receiptsFor: (receiverId: string) => boolean,
): Message {
  const readVisible = r.read_at !== null && (viewerId !== r.sender_id || receiptsFor(r.receiver_id));
  const status = readVisible ? 'read' : r.delivered_at || r.read_at ? 'delivered' : 'sent';
  const photo: Photo | undefined =
    r.photo_id && r.storage_key && r.width !== null && r.height !== null
      ? { id: r.photo_id, url: storage.url(r.storage_key), width: r.width, height: r.height }
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
  const json = JSON.stringify(marks.map((m) => ({ r: m.receiverId, c: m.conversationId, u: m.upTo })));
  const { rows } = await sql<{ conversation_id: string; receiver_id: string; sender_id: string; seq: string | number }>`
    update messages m set delivered_at = ${at}
      from jsonb_to_recordset(${json}::jsonb) as d(r text, c text, u bigint)
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

/** Conversations with unread messages for the user, as his list shows them (the badge). */
export async function unreadConversations(db: Db, me: string): Promise<number> {
  const row = await db
    .selectFrom('conversations as c')
    .innerJoin('users as other', (j) => j.on(otherMemberOf('c', me)))
    .select((s) => s.fn.countAll<number>().as('n'))
    .where('other.is_active', '=', true)
    .where(notBlocked(me, 'other.id'))
    .where(sql<boolean>`${mine(me, 'c.deleted_a', 'c.deleted_b')} = false`)
    .where(sql<boolean>`${mine(me, 'c.unread_a', 'c.unread_b')} > 0`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ids of users who share a conversation with `me` (presence goes to them). */
export async function partnersOf(db: Db, me: string): Promise<string[]> {
  const rows = await db
    .selectFrom('conversations')
    .select(sql<string>`case when user_a = ${me} then user_b else user_a end`.as('other'))
    .where((w) => w.or([w('user_a', '=', me), w('user_b', '=', me)]))
    .limit(1000)
    .execute();
  return rows.map((r) => r.other);
}

// ---------------------------------------------------------------------------------------------
// Opening, hiding and reading conversations; message photos.

/** The users a conversation would join: whether each is there, and his tier columns. */
export function findParticipants(db: Db, ids: readonly string[]) {
  return db
    .selectFrom('users')
    .select(['id', 'is_active', 'subscription_tier', 'has_lifetime_premium'])
    .where('id', 'in', [...ids])
    .execute();
}

/** A user's tier columns (effectiveTier reads them). */
export function findTier(db: Db, userId: string) {
  return db.selectFrom('users').select(['subscription_tier', 'has_lifetime_premium']).where('id', '=', userId).executeTakeFirst();
}

/** The conversation of a sorted pair (user_a < user_b), if there is one. */
export async function conversationIdOfPair(db: Db, a: string, b: string): Promise<string | null> {
  const row = await db
    .selectFrom('conversations')
    .select('id')
    .where('user_a', '=', a)
    .where('user_b', '=', b)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The sorted pair's match type, or null when they have not matched. */
export async function matchTypeOfPair(db: Db, a: string, b: string) {
  const row = await db
    .selectFrom('matches')
    .select('match_type')
    .where('user_a', '=', a)
    .where('user_b', '=', b)
    .executeTakeFirst();
  return row?.match_type ?? null;
}

export async function insertConversation(
  db: Db,
  c: { id: string; pair: [string, string]; matchType: string | null; at: Date },
): Promise<void> {
  await db
    .insertInto('conversations')
    .values({
      id: c.id,
      user_a: c.pair[0],
      user_b: c.pair[1],
      type: c.matchType ? 'matched' : 'direct',
      mode: 'dating',
      match_type: c.matchType,
      created_at: c.at,
      updated_at: c.at,
      last_activity: c.at,
    })
    .execute();
}

/** The conversation when `me` takes part in it, whoever the other is (deleting needs no more). */
export function ownConversation(db: Db, id: string, me: string) {
  return db
    .selectFrom('conversations')
    .select(['id', 'user_a', 'user_b'])
    .where('id', '=', id)
    .where((w) => w.or([w('user_a', '=', me), w('user_b', '=', me)]))
    .executeTakeFirst();
}

/** One side's flags of a conversation: deleted for him (and his unread count with it), or back. */
export async function setDeletedFor(db: Db, id: string, side: 'a' | 'b', deleted: boolean): Promise<void> {
  const set = side === 'a' ? { deleted_a: deleted } : { deleted_b: deleted };
  const unread = deleted ? (side === 'a' ? { unread_a: 0 } : { unread_b: 0 }) : {};
  await db
    .updateTable('conversations')
    .set({ ...set, ...unread })
    .where('id', '=', id)
    .execute();
}

/**
 * Marks the messages to `me` in the conversation read up to `upTo` (delivered too, if not yet)
 * and sets his unread count to what is left; returns the seqs newly read.
 */
export async function markRead(db: Db, c: ParticipantConversation, me: string, upTo: number, at: Date): Promise<number[]> {
  const marked = await db
    .updateTable('messages')
    .set({ read_at: at, delivered_at: sql`coalesce(delivered_at, ${at})` })
    .where('conversation_id', '=', c.id)
    .where('receiver_id', '=', me)
    .where('seq', '<=', upTo)
    .where('read_at', 'is', null)
    .returning('seq')
    .execute();
  const left = await db
    .selectFrom('messages')
    .select((s) => s.fn.countAll<number>().as('n'))
    .where('conversation_id', '=', c.id)
    .where('receiver_id', '=', me)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('conversations')
    .set(c.side === 'a' ? { unread_a: Number(left.n) } : { unread_b: Number(left.n) })
    .where('id', '=', c.id)
    .execute();
  return marked.map((m) => Number(m.seq));
}

export async function insertMessagePhoto(
  db: Db,
  p: { id: string; userId: string; storageKey: string; width: number; height: number; bytes: number; at: Date },
): Promise<void> {
  await db
    .insertInto('message_photos')
    .values({
      id: p.id,
      user_id: p.userId,
      storage_key: p.storageKey,
      width: p.width,
      height: p.height,
      bytes: p.bytes,
      created_at: p.at,
    })
    .execute();
}
