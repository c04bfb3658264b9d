import {
  type AliasedSelectQueryBuilder,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { listedUserColumns } from '../../db/fragments.ts';
import type { DB, Db } from '../../db/index.ts';
import { notBlocked } from '../../platform/blocks/repo.ts';
import { viewerGeo } from '../../platform/geo.ts';

/**
 * SQL of locations and the grid. Every distance, order and filter here is computed from the
 * viewer's cell centre to each man's stored place (`user_locations.geo`, see platform/geo.ts and
 * docs/decisions/0016), never from a raw position: the server never has one.
 */

export * from './repo/location.ts';

// ---------------------------------------------------------------------------------------------
// The grid.

/** Who is looking, from where (his own cell centre), and for which day. */
export interface GridViewer {
  id: string;
  lat: number;
  lng: number;
  mode: 'dating' | 'now';
  /** The day that seeds the shuffle of ties (YYYY-MM-DD): paging is stable within it. */
  seedDay: string;
  /** Today (UTC, YYYY-MM-DD): the day of the clickable set. */
  today: string;
}

export interface GridFilters {
  ageMin: number;
  ageMax: number;
  /** maxDistance as a chord in geo space (chordForKm). */
  maxChord: number;
  /** Locations not updated since are stale and left out. */
  freshSince: Date;
  onlineOnly?: boolean | undefined;
  withPhotos?: boolean | undefined;
  position?: string | undefined;
  tribe?: string | undefined;
  heightMin?: number | undefined;
  heightMax?: number | undefined;
}

/** The keyset position of a grid row: distance from the viewer's point (ties shuffled in it), id. */
export interface GridKey {
  d: number;
  id: string;
}

type GridDB = DB & { ul: DB['user_locations'] & { d: number }; u: DB['users']; s: DB['user_settings'] };
type GridEB = ExpressionBuilder<GridDB, 'ul' | 'u' | 's'>;

/** Distance from the viewer's point (with his tie pivot) in geo space; the GiST index orders by it. */
export const snappedDistance = (v: GridViewer): RawBuilder<number> =>
  sql<number>`(ul.geo <-> ${viewerGeo(v.id, v.seedDay, v)}::cube)`;

/**
 * Who may appear in this viewer's grid (spec issue 4 item 2), beyond a shared, fresh location
 * (nearest, below): never the viewer himself; an active (not banned, not deactivated) user with a
 * complete profile, sharing his location, not incognito, visible in the viewer's mode, not blocked either way, within
 * the distance; and the filters.
 */
export function visibleInGrid(eb: GridEB, v: GridViewer, f: GridFilters): Expression<SqlBool> {
  const showIn = v.mode === 'dating' ? 'showInDating' : 'showInNow';
  const height = sql<number>`(u.now_profile->'quickStats'->>'height')::int`;
  const conditions: Expression<SqlBool>[] = [
    eb('ul.d', '<=', f.maxChord),
    eb('u.is_active', '=', true),
    eb('u.onboarding_complete', '=', true),
    sql<SqlBool>`coalesce(s.incognito_mode, false) = false`,
    // locationSafety.shareLocationEnabled off: in no list of located men.
    sql<SqlBool>`coalesce(s.share_location_enabled, true)`,
    // Profile visibility 'matches' (hideFromSearch): never in the grid.
    sql<SqlBool>`coalesce(s.profile_visibility, 'public') = 'public'`,
    eb('u.age', '>=', f.ageMin),
    eb('u.age', '<=', f.ageMax),
    sql<SqlBool>`coalesce((u.mode_visibility->>${showIn})::boolean, false)`,
    notBlocked(v.id, 'ul.user_id'),
  ];
  // Online only counts users who show it: a hidden status must not be learnt through a filter.
  if (f.onlineOnly) conditions.push(eb.and([eb('u.is_online', '=', true), sql<SqlBool>`coalesce(s.show_online_status, true)`]));
  if (f.withPhotos) conditions.push(eb('u.photo_url', 'is not', null));
  if (f.position) conditions.push(sql<SqlBool>`u.now_profile->>'position' = ${f.position}`);
  if (f.tribe) conditions.push(sql<SqlBool>`u.now_profile->'tribes' @> jsonb_build_array(${f.tribe}::text)`);
  if (f.heightMin !== undefined) conditions.push(sql<SqlBool>`${height} >= ${f.heightMin}`);
  if (f.heightMax !== undefined) conditions.push(sql<SqlBool>`${height} <= ${f.heightMax}`);
  return eb.and(conditions);
}

/**
 * Opens without spending one of the day's opens (core `opensFree`): opened today, a match, a
 * conversation partner, or a man who chose fuck or marry on the viewer.
 */
export function openToViewer(eb: GridEB, v: GridViewer): Expression<SqlBool> {
  const pair = sql<SqlBool>`p.user_a = least(${v.id}, ul.user_id) and p.user_b = greatest(${v.id}, ul.user_id)`;
  return eb.or([
    eb.exists(
      eb
        .selectFrom('grid_unlocks as g')
        .select(sql`1`.as('one'))
        .where('g.viewer_id', '=', v.id)
        .where('g.day', '=', v.today)
        .whereRef('g.target_id', '=', 'ul.user_id'),
    ),
    eb.exists(eb.selectFrom('matches as p').select(sql`1`.as('one')).where(pair)),
    eb.exists(eb.selectFrom('conversations as p').select(sql`1`.as('one')).where(pair)),
    eb.exists(
      eb
        .selectFrom('selections as l')
        .select(sql`1`.as('one'))
        .whereRef('l.chooser_id', '=', 'ul.user_id')
        .where('l.target_id', '=', v.id),
    ),
  ]);
}

/**
 * The k nearest shared, fresh locations after the cursor, nearest first: a GiST KNN walk that
 * reads about k entries and stops, whatever the planner thinks of the area's density (a box
 * condition here made PostgreSQL sort every user in range instead: 300 ms at 100 k users).
 */
export function nearest(db: Db, v: GridViewer, f: GridFilters, after: GridKey | null, k: number) {
  const d = snappedDistance(v);
  return db
    .selectFrom('user_locations as ul')
    .select(['ul.user_id', 'ul.lat', 'ul.lng', d.as('d')])
    .where('ul.is_active', '=', true)
    .where('ul.last_updated', '>=', f.freshSince)
    .where('ul.user_id', '<>', v.id)
    .$if(after !== null, (qb) => qb.where(sql<SqlBool>`(${d}, ul.user_id) > (${after!.d}::float8, ${after!.id}::text)`))
    .orderBy(d)
    .limit(k);
}

/**
 * One page of the grid in one statement: among the k nearest locations (see `nearest`), the
 * visible users in order of (distance, id), n at most. When fewer than n come back the caller
 * asks `nearestExtent` whether the k were all there is in range, and widens k if not.
 */
export function gridPageQuery(db: Db, v: GridViewer, f: GridFilters, after: GridKey | null, n: number, k: number) {
  return visibleRows(db, nearest(db, v, f, after, k).as('ul'), v, f).limit(n);
}

/** A candidate location as `nearest` and `boostedCandidatesQuery` give it: whose, where, how far. */
export type Candidate = { user_id: string; lat: number; lng: number; d: number };

/** Among the candidates, the users the viewer may see (visibleInGrid), in order of (distance, id). */
export function visibleRows(db: Db, candidates: AliasedSelectQueryBuilder<Candidate, 'ul'>, v: GridViewer, f: GridFilters) {
  return (
    db
      .selectFrom(candidates)
      .innerJoin('users as u', 'u.id', 'ul.user_id')
      .leftJoin('user_settings as s', 's.user_id', 'ul.user_id')
      // His place shift: the distance label is from his place, as the order (platform/present).
      .innerJoin('user_locations as loc', 'loc.user_id', 'ul.user_id')
      .where((eb) => visibleInGrid(eb as unknown as GridEB, v, f))
      .select((eb) => [
        ...listedUserColumns,
        'loc.shift_lat',
        'loc.shift_lng',
        'u.is_online',
        'u.current_mode',
        'u.right_now_enabled',
        sql<string | null>`u.now_profile->>'rightNow'`.as('right_now'),
        's.show_online_status',
        's.share_distance',
        's.share_only_with_matches',
        's.hide_exact_location',
        's.cruising_private',
        sql<boolean>`${openToViewer(eb as unknown as GridEB, v)}`.as('open'),
        // Asked only for the rows returned whose distance depends on it (shareOnlyWithMatches).
        sql<boolean>`case when coalesce(s.share_only_with_matches, false) then exists (select 1 from matches m where m.user_a = least(${v.id}, ul.user_id) and m.user_b = greatest(${v.id}, ul.user_id)) else false end`.as(
          'matched',
        ),
      ])
      .orderBy('ul.d')
      .orderBy('ul.user_id')
  );
}

/**
 * The men with a boost running at `now` whose shared, fresh location is within the viewer's
 * distance: a range scan of the running boosts (boosts_ends), each joined to its location. Their
 * page (boostedPage, repo/candidates.ts) runs the grid's rules over them only when there are any:
 * most first pages have none near, and the rules' statement costs about a millisecond to plan.
 */
export function boostedCandidatesQuery(db: Db, v: GridViewer, f: GridFilters, now: Date) {
  const d = snappedDistance(v);
  return db
    .selectFrom('boosts as bo')
    .innerJoin('user_locations as ul', 'ul.user_id', 'bo.user_id')
    .select(['ul.user_id', 'ul.lat', 'ul.lng', d.as('d')])
    .where('bo.ends_at', '>', now)
    .where('bo.started_at', '<=', now)
    .where('ul.is_active', '=', true)
    .where('ul.last_updated', '>=', f.freshSince)
    .where('bo.user_id', '<>', v.id)
    .where(d, '<=', f.maxChord);
}

/** How many of the k nearest exist and how far the last is: whether a short page is the end. */
export function nearestExtent(db: Db, v: GridViewer, f: GridFilters, after: GridKey | null, k: number) {
  return nearestExtentQuery(db, v, f, after, k).executeTakeFirstOrThrow();
}

export function nearestExtentQuery(db: Db, v: GridViewer, f: GridFilters, after: GridKey | null, k: number) {
  return db
    .selectFrom(nearest(db, v, f, after, k).as('n'))
    .select([sql<number>`count(*)::int`.as('count'), sql<number | null>`max(n.d)`.as('max_d')]);
}

export type GridRow = Awaited<ReturnType<ReturnType<typeof gridPageQuery>['execute']>>[number];

/** The viewer as the grid needs him: tier, preferences, mode, location, today's unlocked count. */
export function findGridViewer(db: Db, viewerId: string, today: string) {
  return gridViewerQuery(db, viewerId, today).executeTakeFirst();
}

export function gridViewerQuery(db: Db, viewerId: string, today: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_locations as ul', 'ul.user_id', 'u.id')
    .select((eb) => [
      'u.subscription_tier',
      'u.has_lifetime_premium',
      'u.preferences',
      'u.current_mode',
      'ul.lat',
      'ul.lng',
      'ul.is_active as location_active',
      eb
        .selectFrom('grid_unlocks as g')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('g.viewer_id', '=', viewerId)
        .where('g.day', '=', today)
        .as('unlocked_today'),
    ])
    .where('u.id', '=', viewerId);
}

/** The viewer's row locked for the transaction: profile opens of one viewer are counted one at a time. */
export function lockViewerForOpen(trx: Db, viewerId: string) {
  return trx
    .selectFrom('users')
    .select(['subscription_tier', 'has_lifetime_premium'])
    .where('id', '=', viewerId)
    .forUpdate()
    .executeTakeFirst();
}

/** How the target stands to the viewer for the open rule (core `OpenRelation`, less self), and today's opens. */
export async function findOpenRelation(db: Db, viewerId: string, targetId: string, today: string) {
  const [a, b] = viewerId < targetId ? [viewerId, targetId] : [targetId, viewerId];
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('grid_unlocks')
            .select('target_id')
            .where('viewer_id', '=', viewerId)
            .where('day', '=', today)
            .where('target_id', '=', targetId),
        )
        .as('opened_today'),
      eb.exists(eb.selectFrom('matches').select('id').where('user_a', '=', a).where('user_b', '=', b)).as('matched'),
      eb.exists(eb.selectFrom('conversations').select('id').where('user_a', '=', a).where('user_b', '=', b)).as('conversation'),
      eb
        .exists(eb.selectFrom('selections').select('id').where('chooser_id', '=', targetId).where('target_id', '=', viewerId))
        .as('liked_viewer'),
      eb
        .selectFrom('grid_unlocks')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('viewer_id', '=', viewerId)
        .where('day', '=', today)
        .as('opened_count'),
    ])
    .executeTakeFirstOrThrow();
  return {
    relation: {
      self: false,
      matched: Boolean(row.matched),
      conversation: Boolean(row.conversation),
      likedViewer: Boolean(row.liked_viewer),
      openedToday: Boolean(row.opened_today),
    },
    openedCount: Number(row.opened_count ?? 0),
  };
}

/** Records one spent open (the position is its order in the day). */
export async function insertOpen(
  db: Db,
  viewerId: string,
  day: string,
  targetId: string,
  position: number,
  at: Date,
): Promise<void> {
  await db
    .insertInto('grid_unlocks')
    .values({ viewer_id: viewerId, day, target_id: targetId, position, created_at: at })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
