import { randomUUID } from 'node:crypto';
import type { Match, MatchType, Stats, StoredAction } from '@fmk/core';
import { type ExpressionBuilder, sql } from 'kysely';
import { jsonObjectFrom } from 'kysely/helpers/postgres';
import { otherMemberOf } from '../../db/fragments.ts';
import type { DB, Db } from '../../db/index.ts';
import { blockedEitherWay, notBlocked } from '../../platform/blocks/repo.ts';
import { userCard, type Viewer } from '../../platform/present.ts';

/** The columns of a user the game reads. */
export interface GameUserRow {
  id: string;
  display_name: string | null;
  photo_url: string | null;
  photo_nudity: number | null;
  photo_sensitive: boolean;
  /** The verified badge, shown on the match card (never the number). */
  phone_verified_at: Date | null;
  is_active: boolean;
  subscription_tier: 'free' | 'premium' | 'platinum';
  has_lifetime_premium: boolean;
  app_mode: 'both' | 'fuck' | 'marry';
  current_mode: 'dating' | 'now';
}

const gameUserColumns = [
  'id',
  'display_name',
  'photo_url',
  'photo_nudity',
  'photo_sensitive',
  'phone_verified_at',
  'is_active',
  'subscription_tier',
  'has_lifetime_premium',
  'app_mode',
  'current_mode',
] as const;

/**
 * Locks both users' rows in id order until the transaction ends. Every selection between two
 * users takes these locks first, so two users choosing each other at the same moment run one
 * after the other and the second sees the first's selection: one match, one conversation.
 * The chooser's lock also serialises his retries (client ids) and his super count.
 * NO KEY UPDATE, not UPDATE: a message's insert key-shares its sender's and receiver's rows (its
 * foreign keys) one after the other, and queued behind FOR UPDATE waiters those sends and
 * selections deadlocked each other under load (a 500 to someone); NO KEY UPDATE never blocks a key share.
 */
export async function lockPair(trx: Db, a: string, b: string): Promise<Map<string, GameUserRow>> {
  const rows = await trx
    .selectFrom('users')
    .select(gameUserColumns)
    .where('id', 'in', [a, b])
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface SelectionContext {
  blocked: boolean;
  /** The chooser's earlier request with this client id (a retry). */
  earlier: { target_id: string; action: 'fuck' | 'marry' | 'kill'; result: unknown } | null;
  /** Super selections the chooser made in the day window. */
  supersToday: number;
  mine: { action: StoredAction; is_super: boolean } | null;
  theirs: { action: StoredAction; is_super: boolean } | null;
}

/**
 * Everything a selection decides on, in one round trip: blocks either way, the retry, today's
 * super count and both selections of the pair.
 */
export async function selectionContext(
  db: Db,
  q: { chooserId: string; targetId: string; clientId: string; dayStart: Date; dayEnd: Date },
): Promise<SelectionContext> {
  const { chooserId: a, targetId: b } = q;
  const selection = (eb: ExpressionBuilder<DB, never>, chooser: string, target: string) =>
    jsonObjectFrom(
      eb
        .selectFrom('selections')
        .select(['action', 'is_super'])
        .where('chooser_id', '=', chooser)
        .where('target_id', '=', target),
    );
  const row = await db
    .selectNoFrom((eb) => [
      blockedEitherWay(a, sql.val(b)).as('blocked'),
      jsonObjectFrom(
        eb
          .selectFrom('selection_requests')
          .select(['target_id', 'action', 'result'])
          .where('chooser_id', '=', a)
          .where('client_id', '=', q.clientId),
      ).as('earlier'),
      eb
        .selectFrom('selection_requests')
        .select((s) => s.fn.countAll<number>().as('n'))
        .where('chooser_id', '=', a)
        .where('is_super', '=', true)
        .where('created_at', '>=', q.dayStart)
        .where('created_at', '<', q.dayEnd)
        .as('supers'),
      selection(eb, a, b).as('mine'),
      selection(eb, b, a).as('theirs'),
    ])
    .executeTakeFirstOrThrow();
  return {
    blocked: Boolean(row.blocked),
    earlier: row.earlier,
    supersToday: Number(row.supers ?? 0),
    mine: row.mine,
    theirs: row.theirs,
  };
}

export async function saveRequest(
  db: Db,
  r: {
    chooserId: string;
    clientId: string;
    targetId: string;
    action: 'fuck' | 'marry' | 'kill';
    isSuper: boolean;
    result: unknown;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('selection_requests')
    .values({
      chooser_id: r.chooserId,
      client_id: r.clientId,
      target_id: r.targetId,
      action: r.action,
      is_super: r.isSuper,
      result: JSON.stringify(r.result),
      created_at: r.at,
    })
    .execute();
}

/** Inserts or replaces the chooser's selection of the target. A changed choice is unseen again. */
export async function upsertSelection(
  db: Db,
  s: { chooserId: string; targetId: string; action: StoredAction; isSuper: boolean; clientId: string; at: Date },
): Promise<void> {
  await db
    .insertInto('selections')
    .values({
      id: randomUUID(),
      chooser_id: s.chooserId,
      target_id: s.targetId,
      action: s.action,
      is_super: s.isSuper,
      client_id: s.clientId,
      created_at: s.at,
      updated_at: s.at,
    })
    .onConflict((oc) =>
      oc.columns(['chooser_id', 'target_id']).doUpdateSet({
        action: s.action,
        is_super: s.isSuper,
        client_id: s.clientId,
        updated_at: s.at,
        seen_at: null,
      }),
    )
    .execute();
}

type StatKey = keyof Stats;
/** Adds to counters of users.stats in place (jsonb), under the row lock the caller holds. */
export async function bumpStats(db: Db, userIds: string | string[], add: Partial<Record<StatKey, number>>): Promise<void> {
  const entries = Object.entries(add).filter(([, n]) => n);
  if (entries.length === 0) return;
  const parts = entries.map(([k, n]) => sql`${k}::text, coalesce((stats->>${k}::text)::int, 0) + ${n}::int`);
  await db
    .updateTable('users')
    .set({ stats: sql`stats || jsonb_build_object(${sql.join(parts)})` })
    .where('id', 'in', Array.isArray(userIds) ? userIds : [userIds])
    .execute();
}

/**
 * Creates the pair's match or updates it (matchedAt, type, actions). `created` tells which:
 * xmax is 0 on a row this statement inserted.
 */
export async function upsertMatch(
  db: Db,
  m: { pair: [string, string]; matchType: MatchType; userActions: Record<string, StoredAction>; at: Date },
): Promise<{ id: string; createdAt: Date; created: boolean }> {
  const row = await db
    .insertInto('matches')
    .values({
      id: randomUUID(),
      user_a: m.pair[0],
      user_b: m.pair[1],
      match_type: m.matchType,
      user_actions: JSON.stringify(m.userActions),
      created_at: m.at,
      matched_at: m.at,
    })
    .onConflict((oc) =>
      oc.columns(['user_a', 'user_b']).doUpdateSet({
        match_type: m.matchType,
        user_actions: JSON.stringify(m.userActions),
        matched_at: m.at,
      }),
    )
    .returning(['id', 'created_at', sql<boolean>`(xmax = 0)`.as('created')])
    .executeTakeFirstOrThrow();
  return { id: row.id, createdAt: row.created_at, created: Boolean(row.created) };
}

/** The pair's conversation, created or reused as the match's (type matched, mode dating). */
export async function upsertMatchedConversation(
  db: Db,
  c: { pair: [string, string]; matchType: MatchType; at: Date },
): Promise<string> {
  const row = await db
    .insertInto('conversations')
    .values({
      id: randomUUID(),
      user_a: c.pair[0],
      user_b: c.pair[1],
      type: 'matched',
      mode: 'dating',
      match_type: c.matchType,
      created_at: c.at,
      updated_at: c.at,
      last_activity: c.at,
    })
    .onConflict((oc) =>
      oc
        .columns(['user_a', 'user_b'])
        .doUpdateSet({ type: 'matched', mode: 'dating', match_type: c.matchType, updated_at: c.at }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Users the viewer must not see: blocked either way, or inactive (banned). */
function hiddenFrom(viewerId: string, otherId: 'other.id') {
  return (eb: ExpressionBuilder<DB & { other: DB['users'] }, 'other'>) =>
    eb.and([eb('other.is_active', '=', true), notBlocked(viewerId, otherId)]);
}

/** The viewer's matches as he sees them, newest matchedAt first. `pair` limits to one pair. */
export async function listMatches(db: Db, viewerId: string, who: Viewer, pair?: [string, string]): Promise<Match[]> {
  let q = db
    .selectFrom('matches as m')
    .innerJoin('users as other', (j) => j.on(otherMemberOf('m', viewerId)))
    .leftJoin('conversations as c', (j) => j.onRef('c.user_a', '=', 'm.user_a').onRef('c.user_b', '=', 'm.user_b'))
    .select([
      'm.id',
      'm.user_a',
      'm.user_b',
      'm.match_type',
      'm.user_actions',
      'm.matched_at',
      'm.created_at',
      'c.id as conversation_id',
      'other.id as other_id',
      'other.display_name',
      'other.photo_url',
      'other.photo_nudity',
      'other.photo_sensitive',
      'other.phone_verified_at',
    ])
    .where(hiddenFrom(viewerId, 'other.id'));
  if (pair) q = q.where('m.user_a', '=', pair[0]).where('m.user_b', '=', pair[1]);
  const rows = await q.orderBy('m.matched_at', 'desc').orderBy('m.id').limit(1000).execute();
  return rows.map((r) => ({
    id: r.id,
    users: [r.user_a, r.user_b],
    matchType: r.match_type,
    userActions: r.user_actions,
    matchedAt: r.matched_at.toISOString(),
    createdAt: r.created_at.toISOString(),
    conversationId: r.conversation_id ?? '',
    other: userCard(
      {
        id: r.other_id,
        display_name: r.display_name,
        photo_url: r.photo_url,
        photo_nudity: r.photo_nudity,
        photo_sensitive: r.photo_sensitive,
        phone_verified_at: r.phone_verified_at,
      },
      who,
    ),
  }));
}

/**
 * Pending selections toward the viewer (spec section 4): fuck or marry by a user he has not
 * matched, who is active and not blocked either way.
 */
function pendingToward(db: Db, viewerId: string) {
  return db
    .selectFrom('selections as s')
    .innerJoin('users as other', 'other.id', 's.chooser_id')
    .where('s.target_id', '=', viewerId)
    .where(hiddenFrom(viewerId, 'other.id'))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('matches as m')
            .select('m.id')
            .where('m.user_a', '=', sql<string>`least(s.chooser_id, ${viewerId})`)
            .where('m.user_b', '=', sql<string>`greatest(s.chooser_id, ${viewerId})`),
        ),
      ),
    );
}

export async function pendingCounts(db: Db, viewerId: string): Promise<{ fuck: number; marry: number; unseen: number }> {
  const row = await pendingToward(db, viewerId)
    .select([
      sql<number>`count(*) filter (where s.action = 'fuck')`.as('fuck'),
      sql<number>`count(*) filter (where s.action = 'marry')`.as('marry'),
      sql<number>`count(*) filter (where s.seen_at is null)`.as('unseen'),
    ])
    .executeTakeFirstOrThrow();
  return { fuck: Number(row.fuck), marry: Number(row.marry), unseen: Number(row.unseen) };
}

export interface PendingRow {
  chooser_id: string;
  display_name: string | null;
  age: number;
  photo_url: string | null;
  photo_nudity: number | null;
  photo_sensitive: boolean;
  phone_verified_at: Date | null;
  action: StoredAction;
  is_super: boolean;
  updated_at: Date;
  seen_at: Date | null;
}

/** The newest pending selections toward the viewer (a changed choice counts as new). */
export function listPending(db: Db, viewerId: string, limit: number): Promise<PendingRow[]> {
  return pendingToward(db, viewerId)
    .select([
      's.chooser_id',
      'other.display_name',
      'other.age',
      'other.photo_url',
      'other.photo_nudity',
      'other.photo_sensitive',
      'other.phone_verified_at',
      's.action',
      's.is_super',
      's.updated_at',
      's.seen_at',
    ])
    .orderBy('s.updated_at', 'desc')
    .orderBy('s.id')
    .limit(limit)
    .execute();
}

export async function markPendingSeen(db: Db, viewerId: string, at: Date): Promise<void> {
  await db
    .updateTable('selections')
    .set({ seen_at: at })
    .where('target_id', '=', viewerId)
    .where('seen_at', 'is', null)
    .execute();
}

/** Others' selection requests aimed at an erased user: their target has no foreign key to cascade. */
export async function deleteRequestsAt(db: Db, targetId: string): Promise<void> {
  await db.deleteFrom('selection_requests').where('target_id', '=', targetId).execute();
}
