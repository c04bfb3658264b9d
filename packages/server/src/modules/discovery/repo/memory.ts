import { sql } from 'kysely';
import { cardUserColumns } from '../../../db/fragments.ts';
import type { Db } from '../../../db/index.ts';
import { blockedEitherWaySet } from '../../../platform/blocks/repo.ts';
import { geoCoordinates } from './candidates.ts';

/**
 * SQL of the grid's rules in memory (memory.ts): the change log's new rows, and what the rules and
 * the cards read of a man, of a viewer and of the running boosts, each read whole so that memory
 * answers as the grid's own statement (repo.ts visibleRows) would.
 */

/** The log's rows from transactions at or after `watermark` (xid8 as text), and this snapshot's xmin. */
export async function readChanges(db: Db, watermark: string | null) {
  const { rows } = await sql<{ xmin: string; user_id: string | null; what: string | null }>`
    select s.xmin::text as xmin, c.user_id, c.what
    from (select pg_snapshot_xmin(pg_current_snapshot()) as xmin) s
    left join grid_changes c on ${watermark}::xid8 is not null and c.txid >= ${watermark}::xid8`.execute(db);
  return rows;
}

/** Rows old enough that every instance has read them (or has since dropped all it holds). */
export async function pruneChanges(db: Db, olderThanMs: number): Promise<void> {
  await sql`delete from grid_changes where at < clock_timestamp() - make_interval(secs => ${olderThanMs / 1000})`.execute(db);
}

/**
 * A man as the grid's rules and card read him: his user row's columns (JSON fields as the rules
 * read them), his settings (null without a row, as the statement's left join), his place shift
 * (null without a location: the statement's inner join drops him).
 */
export function heldProfilesQuery(db: Db, ids: readonly string[]) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_settings as s', 's.user_id', 'u.id')
    .leftJoin('user_locations as loc', 'loc.user_id', 'u.id')
    .select([
      'u.id',
      ...cardUserColumns,
      'u.is_active',
      'u.onboarding_complete',
      'u.is_online',
      'u.current_mode',
      'u.right_now_enabled',
      sql<string | null>`u.now_profile->>'rightNow'`.as('right_now'),
      sql<boolean>`coalesce((u.mode_visibility->>'showInDating')::boolean, false)`.as('in_dating'),
      sql<boolean>`coalesce((u.mode_visibility->>'showInNow')::boolean, false)`.as('in_now'),
      sql<string | null>`u.now_profile->>'position'`.as('position'),
      sql<unknown>`u.now_profile->'tribes'`.as('tribes'),
      sql<string | null>`u.now_profile->'quickStats'->>'height'`.as('height'),
      's.user_id as settings_of',
      's.incognito_mode',
      's.share_location_enabled',
      's.profile_visibility',
      's.show_online_status',
      's.share_distance',
      's.share_only_with_matches',
      's.hide_exact_location',
      's.cruising_private',
      'loc.shift_lat',
      'loc.shift_lng',
    ])
    .where('u.id', 'in', ids as string[]);
}

export type HeldProfile = Awaited<ReturnType<ReturnType<typeof heldProfilesQuery>['execute']>>[number];

/** The viewer's own row as the grid reads it (repo.ts gridViewerQuery, less the day's count). */
export function heldViewerQuery(db: Db, viewerId: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_locations as ul', 'ul.user_id', 'u.id')
    .select(['u.preferences', 'u.current_mode', 'ul.lat', 'ul.lng', 'ul.is_active as location_active'])
    .where('u.id', '=', viewerId);
}

/**
 * How every other user stands to the viewer, as the rules ask it: blocked either way ('b'), a match
 * ('m'), a conversation ('c'), chose him ('l'), opened by him on `day` ('u').
 */
export async function heldRelations(db: Db, viewerId: string, day: string) {
  const { rows } = await sql<{ k: 'b' | 'm' | 'c' | 'l' | 'u'; other: string }>`
    select 'b' as k, x.other from (${blockedEitherWaySet(viewerId)}) x
    union all select 'm', user_b from matches where user_a = ${viewerId}
    union all select 'm', user_a from matches where user_b = ${viewerId}
    union all select 'c', user_b from conversations where user_a = ${viewerId}
    union all select 'c', user_a from conversations where user_b = ${viewerId}
    union all select 'l', chooser_id from selections where target_id = ${viewerId}
    union all select 'u', target_id from grid_unlocks where viewer_id = ${viewerId} and day = ${day}`.execute(db);
  return rows;
}

/** Every boost not ended at `now`, with its man's location as the lists hold one (candidates.ts). */
export async function heldBoosts(db: Db, now: Date) {
  const rows = await db
    .selectFrom('boosts as bo')
    .innerJoin('user_locations as ul', 'ul.user_id', 'bo.user_id')
    .select([
      'bo.user_id',
      'bo.started_at',
      'bo.ends_at',
      'ul.lat',
      'ul.lng',
      'ul.is_active',
      'ul.last_updated',
      ...geoCoordinates,
    ])
    .where('bo.ends_at', '>', now)
    .execute();
  return rows.map((r) => ({
    user_id: r.user_id,
    started: new Date(r.started_at).getTime(),
    ends: new Date(r.ends_at).getTime(),
    lat: Number(r.lat),
    lng: Number(r.lng),
    active: r.is_active,
    updated: new Date(r.last_updated).getTime(),
    xyzw: [Number(r.x), Number(r.y), Number(r.z), Number(r.w)] as const,
  }));
}

export type HeldBoost = Awaited<ReturnType<typeof heldBoosts>>[number];
