import type { Conversation } from '@fmk/core';
import { sql } from 'kysely';
import { otherMemberOf } from '../../db/fragments.ts';
import type { Db } from '../../db/index.ts';
import { blockedEitherWay, notBlocked } from '../../platform/blocks/repo.ts';
import { userCard, type Viewer } from '../../platform/present.ts';

// Messages themselves (pages, the send, receipts, delivery) are in repo/messages.ts, the sweep of
// unanswered chats from unverified men in repo/unverified.ts; the service reads all through this module.
export * from './repo/messages.ts';
export * from './repo/unverified.ts';

/** True when either user blocked the other. */
export async function isBlocked(db: Db, a: string, b: string): Promise<boolean> {
  const row = await db.selectNoFrom(blockedEitherWay(a, sql.val(b)).as('blocked')).executeTakeFirstOrThrow();
  return Boolean(row.blocked);
}

const mine = (me: string, a: string, b: string) => sql`case when c.user_a = ${me} then ${sql.ref(a)} else ${sql.ref(b)} end`;

/**
 * The viewer's conversations as he sees them: the other participant active and not blocked
 * either way, his avatar through the viewer's content filter (`who`). `id` picks one (deleted for
 * me or not); without it, the list excludes deleted ones.
 */
export async function listConversations(db: Db, me: string, opts: { id?: string; limit: number; who: Viewer }) {
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
      'other.photo_nudity',
      'other.photo_sensitive',
      'other.phone_verified_at',
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
      other: {
        ...userCard(
          {
            id: r.other_id,
            display_name: r.display_name,
            photo_url: r.photo_url,
            photo_nudity: r.photo_nudity,
            photo_sensitive: r.photo_sensitive,
            phone_verified_at: r.phone_verified_at,
          },
          opts.who,
        ),
        isOnline: r.is_online,
      },
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

/** Each user's conversation partners (at most 1000 each: presence goes to them), for many users in one statement. */
export async function partnersOf(db: Db, userIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (userIds.length === 0) return out;
  const { rows } = await sql<{ me: string; other: string }>`
    select u.me, p.other
    from (values ${sql.join(userIds.map((id) => sql`(${id})`))}) as u(me)
    cross join lateral (
      select case when c.user_a = u.me then c.user_b else c.user_a end as other
      from conversations c
      where c.user_a = u.me or c.user_b = u.me
      limit 1000
    ) p`.execute(db);
  for (const r of rows) {
    const list = out.get(r.me);
    if (list) list.push(r.other);
    else out.set(r.me, [r.other]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Opening, hiding and reading conversations; message photos.

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

/** Marks a message photo sensitive (moderation); false when there is no such photo. */
export async function markMessagePhotoSensitive(db: Db, id: string): Promise<boolean> {
  const r = await db
    .updateTable('message_photos')
    .set({ sensitive: true })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
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
