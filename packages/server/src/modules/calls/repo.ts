import type { CallOutcome } from '@fmk/core';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { CallsTable } from '../../db/schema.ts';
import { blockedEitherWay } from '../../platform/blocks/repo.ts';

// The SQL of calls: the call rows (records and the shared signalling state), the per-pair
// ordering lock, and the chat line a call leaves in the pair's conversation.

export type CallRow = Selectable<CallsTable>;

/**
 * Serialises call changes touching these users on every instance (one call at a time per user):
 * transaction-scoped advisory locks, taken in key order so two pairs never deadlock.
 */
export async function lockUsers(db: Db, ids: readonly string[]): Promise<void> {
  const keys = [...new Set(ids)].sort();
  for (const id of keys) await sql`select pg_advisory_xact_lock(5020, hashtext(${id}))`.execute(db);
}

/** Calls started by the user since `since` (the hourly attempt limit). */
export async function attemptsSince(db: Db, callerId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('calls')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('caller_id', '=', callerId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's call that has not ended (ringing or active), if any. */
export function openCallOf(db: Db, userId: string): Promise<CallRow | undefined> {
  return db
    .selectFrom('calls')
    .selectAll()
    .where('state', '<>', 'ended')
    .where((w) => w.or([w('caller_id', '=', userId), w('callee_id', '=', userId)]))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function callById(db: Db, id: string, lock = false): Promise<CallRow | undefined> {
  const q = db.selectFrom('calls').selectAll().where('id', '=', id);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

export async function insertCall(
  db: Db,
  c: Omit<CallRow, 'answered_at' | 'ended_at' | 'offer_sdp' | 'answer_sdp' | 'callee_device'>,
) {
  await db.insertInto('calls').values(c).execute();
}

export async function answerCall(db: Db, id: string, device: string, at: Date): Promise<CallRow> {
  return db
    .updateTable('calls')
    .set({ state: 'active', callee_device: device, answered_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function endCall(db: Db, id: string, outcome: CallOutcome, at: Date): Promise<CallRow> {
  return db
    .updateTable('calls')
    .set({ state: 'ended', outcome, ended_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function storeDescription(db: Db, id: string, kind: 'offer' | 'answer', sdp: string): Promise<void> {
  await db
    .updateTable('calls')
    .set(kind === 'offer' ? { offer_sdp: sdp } : { answer_sdp: sdp })
    .where('id', '=', id)
    .execute();
}

/** Ringing calls whose ringing began before `before`, locked, skipping those another instance is ending. */
export function ringingSince(db: Db, before: Date): Promise<CallRow[]> {
  return db
    .selectFrom('calls')
    .selectAll()
    .where('state', '=', 'ringing')
    .where('created_at', '<=', before)
    .forUpdate()
    .skipLocked()
    .execute();
}

/**
 * Active calls answered before `before` where a participant has no open live socket on any
 * instance (his browser closed or crashed mid-call), locked.
 */
export function abandonedSince(db: Db, before: Date): Promise<CallRow[]> {
  return db
    .selectFrom('calls as c')
    .selectAll('c')
    .where('c.state', '=', 'active')
    .where('c.answered_at', '<=', before)
    .where((w) =>
      w.or([
        w.not(w.exists(w.selectFrom('live_connections as l').select('l.id').whereRef('l.user_id', '=', 'c.caller_id'))),
        w.not(w.exists(w.selectFrom('live_connections as l').select('l.id').whereRef('l.user_id', '=', 'c.callee_id'))),
      ]),
    )
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Calls of the pair that have not ended, locked. */
export function openCallsOfPair(db: Db, a: string, b: string): Promise<CallRow[]> {
  return db
    .selectFrom('calls')
    .selectAll()
    .where('state', '<>', 'ended')
    .where((w) =>
      w.or([w.and([w('caller_id', '=', a), w('callee_id', '=', b)]), w.and([w('caller_id', '=', b), w('callee_id', '=', a)])]),
    )
    .forUpdate()
    .execute();
}

/** True when either user blocked the other. */
export async function isBlocked(db: Db, a: string, b: string): Promise<boolean> {
  const row = await db.selectNoFrom(blockedEitherWay(a, sql.val(b)).as('blocked')).executeTakeFirstOrThrow();
  return Boolean(row.blocked);
}

/** Name and photo of the users, for the call as each side sees it and the callee's push. */
export function cards(db: Db, ids: readonly string[]) {
  return db
    .selectFrom('users')
    .select(['id', 'display_name', 'photo_url', 'photo_nudity', 'photo_sensitive', 'is_online'])
    .where('id', 'in', ids)
    .execute();
}

/** The pair's conversation, if any. */
export async function conversationOfPair(db: Db, x: string, y: string): Promise<string | null> {
  const [a, b] = x < y ? [x, y] : [y, x];
  const row = await db
    .selectFrom('conversations')
    .select('id')
    .where('user_a', '=', a)
    .where('user_b', '=', b)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * The call's line in the chat, a 'call' message from the caller (its client id is the call's id,
 * so a line is written once). Like any message it un-deletes the conversation; only a call the
 * callee did not take counts as unread for him.
 */
export async function insertCallLine(
  db: Db,
  l: {
    id: string;
    callId: string;
    conversationId: string;
    callerId: string;
    calleeId: string;
    content: string;
    at: Date;
    unread: boolean;
  },
) {
  const row = await db
    .insertInto('messages')
    .values({
      id: l.id,
      conversation_id: l.conversationId,
      sender_id: l.callerId,
      receiver_id: l.calleeId,
      client_id: `call:${l.callId}`,
      type: 'call',
      content: l.content,
      created_at: l.at,
    })
    .onConflict((oc) => oc.constraint('messages_client').doNothing())
    .returning(['id', 'seq'])
    .executeTakeFirst();
  if (!row) return null;
  const bump = l.unread ? 1 : 0;
  await db
    .updateTable('conversations as c')
    .set({
      last_message_id: l.id,
      last_activity: l.at,
      updated_at: l.at,
      deleted_a: false,
      deleted_b: false,
      unread_a: sql`c.unread_a + case when c.user_a = ${l.calleeId} then ${bump}::int else 0 end`,
      unread_b: sql`c.unread_b + case when c.user_b = ${l.calleeId} then ${bump}::int else 0 end`,
    })
    .where('c.id', '=', l.conversationId)
    .execute();
  return { id: row.id, seq: Number(row.seq) };
}
