import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { listedUserColumns } from '../../../db/fragments.ts';
import type { Db } from '../../../db/index.ts';
import { notBlocked } from '../../../platform/blocks/repo.ts';
import { EARTH_M } from '../../../platform/geo.ts';
import { cruiserQuery } from '../repo.ts';

// ---------------------------------------------------------------------------------------------
// Nearby cruisers.

/** Who is looking, from which cell centre, and how far and how fresh (spec section 7). */
export interface NearbySearch {
  viewerId: string;
  /** The search point: a cube literal, or the viewer's own stored point read in the statement. */
  point: RawBuilder<string>;
  /** The radius as a chord in geo space (platform/geo chordForKm). */
  maxChord: number;
  /** Locations updated before this are stale (30 minutes). */
  freshSince: Date;
  now: Date;
}

/**
 * The k nearest located users in now mode, fresh, nearest first: a KNN walk of the partial
 * index `user_locations_now_geo` (mode now, active), which stops after about k entries.
 */
function nearestNow(db: Db, s: NearbySearch, k: number) {
  const d = sql<number>`(ul.geo <-> ${s.point})`;
  return db
    .selectFrom('user_locations as ul')
    .select(['ul.user_id', 'ul.lat', 'ul.lng', 'ul.shift_lat', 'ul.shift_lng', d.as('d')])
    .where('ul.mode', '=', 'now')
    .where('ul.is_active', '=', true)
    .where('ul.last_updated', '>=', s.freshSince)
    .where('ul.user_id', '<>', s.viewerId)
    .orderBy(d)
    .limit(k);
}

/** The pair (user_a, user_b) of the viewer and the listed user, in the table aliased `t`. */
const pairOf = (t: string, viewerId: string) =>
  sql<SqlBool>`${sql.ref(`${t}.user_a`)} = least(${viewerId}, ul.user_id) and ${sql.ref(`${t}.user_b`)} = greatest(${viewerId}, ul.user_id)`;

/**
 * Whether the listed man is the viewer's match, looked up only for the few rows whose distance
 * depends on it (locationSafety.shareOnlyWithMatches): after the KNN walk, on the rows returned.
 */
const matchedIfAsked = (settings: string, viewerId: string) =>
  sql<boolean>`case when coalesce(${sql.ref(`${settings}.share_only_with_matches`)}, false) then exists (select 1 from matches mm where ${pairOf('mm', viewerId)}) else false end`.as(
    'matched',
  );

/**
 * Nearby cruisers in one statement: among the k nearest now-mode locations, those within the
 * radius with a live session, an active account that is in now mode, consent to share a
 * location, not incognito and not blocked either way; n at most, nearest first.
 */
export function nearbyQuery(db: Db, s: NearbySearch, n: number, k: number) {
  return (
    db
      .selectFrom(nearestNow(db, s, k).as('ul'))
      .innerJoin('cruise_sessions as cs', (j) =>
        j.onRef('cs.user_id', '=', 'ul.user_id').on('cs.ended_at', 'is', null).on('cs.ends_at', '>', s.now),
      )
      .innerJoin('users as u', 'u.id', 'ul.user_id')
      .leftJoin('user_settings as st', 'st.user_id', 'ul.user_id')
      .where('ul.d', '<=', s.maxChord)
      .where('u.is_active', '=', true)
      .where('u.onboarding_complete', '=', true)
      .where('u.current_mode', '=', 'now')
      .where(sql<SqlBool>`coalesce(st.location_sharing_consent, false)`)
      // locationSafety.shareLocationEnabled off: in no list of located men.
      .where(sql<SqlBool>`coalesce(st.share_location_enabled, true)`)
      .where(sql<SqlBool>`coalesce(st.incognito_mode, false) = false`)
      .where(sql<SqlBool>`coalesce(st.profile_visibility, 'public') = 'public'`)
      // Cruising privacy: listed only for his matches and conversation partners.
      .where((eb) =>
        eb.or([
          sql<SqlBool>`coalesce(st.cruising_private, false) = false`,
          eb.exists(eb.selectFrom('matches as pm').select(sql`1`.as('one')).where(pairOf('pm', s.viewerId))),
          eb.exists(eb.selectFrom('conversations as pc').select(sql`1`.as('one')).where(pairOf('pc', s.viewerId))),
        ]),
      )
      .where(notBlocked(s.viewerId, 'ul.user_id'))
      .select([
        ...listedUserColumns,
        'ul.shift_lat',
        'ul.shift_lng',
        'u.right_now_enabled',
        sql<string | null>`u.now_profile->>'position'`.as('position'),
        sql<string[] | null>`u.now_profile->'lookingFor'`.as('looking_for'),
        sql<string | null>`u.now_profile->>'rightNow'`.as('profile_right_now'),
        'cs.right_now as session_right_now',
        'cs.ends_at',
        'st.location_precision',
        'st.share_distance',
        'st.share_only_with_matches',
        'st.hide_exact_location',
        matchedIfAsked('st', s.viewerId),
      ])
      .orderBy('ul.d')
      .orderBy('ul.user_id')
      .limit(n)
  );
}
export type NearbyRow = Awaited<ReturnType<ReturnType<typeof nearbyQuery>['execute']>>[number];

/**
 * The viewer's own search point, read inside the statement: his cell centre (lat, lng) with his
 * tie coordinate, as platform/geo's geoPoint builds it. Not his stored `geo`, which is his 5 km
 * area when he hides his exact location from others (`listedGeo`): he still searches from his cell.
 */
export function viewerPoint(viewerId: string): RawBuilder<string> {
  const lat = sql`radians(vl.lat)`;
  const lng = sql`radians(vl.lng)`;
  return sql<string>`(select cube(array[${sql.lit(EARTH_M)} * cos(${lat}) * cos(${lng}), ${sql.lit(EARTH_M)} * cos(${lat}) * sin(${lng}), ${sql.lit(EARTH_M)} * sin(${lat}), cube_ll_coord(vl.geo, 4)]) from user_locations vl where vl.user_id = ${viewerId})`;
}

/**
 * GET /cruise/nearby in one statement: the viewer (access, consent, location: `findCruiser`'s
 * columns) joined to the first n nearby cruisers among the k nearest, searched from his stored
 * point when he has consented and shared a location. One row per cruiser (one with nulls when
 * there is none), cruiser columns prefixed `c_`. One round trip instead of two.
 */
export function nearbyForViewerQuery(db: Db, s: NearbySearch, n: number, k: number) {
  return db
    .selectFrom(cruiserQuery(db, s.viewerId).as('me'))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom(nearbyQuery(db, s, n, k).as('r0'))
          .selectAll('r0')
          .where(sql<SqlBool>`me.location_sharing_consent and me.location_active`)
          .as('r'),
      (join) => join.onTrue(),
    )
    .selectAll('me')
    .select([
      'r.id as c_id',
      'r.lat as c_lat',
      'r.lng as c_lng',
      'r.shift_lat as c_shift_lat',
      'r.shift_lng as c_shift_lng',
      'r.d as c_d',
      'r.display_name as c_display_name',
      'r.age as c_age',
      'r.photo_url as c_photo_url',
      'r.photo_nudity as c_photo_nudity',
      'r.photo_sensitive as c_photo_sensitive',
      'r.phone_verified_at as c_phone_verified_at',
      'r.right_now_enabled as c_right_now_enabled',
      'r.position as c_position',
      'r.looking_for as c_looking_for',
      'r.profile_right_now as c_profile_right_now',
      'r.session_right_now as c_session_right_now',
      'r.ends_at as c_ends_at',
      'r.location_precision as c_location_precision',
      'r.share_distance as c_share_distance',
      'r.share_only_with_matches as c_share_only_with_matches',
      'r.hide_exact_location as c_hide_exact_location',
      'r.matched as c_matched',
    ])
    .orderBy('r.d')
    .orderBy('r.id');
}
export type NearbyViewerRow = Awaited<ReturnType<ReturnType<typeof nearbyForViewerQuery>['execute']>>[number];

/** The cruiser of a joined row, or null for the viewer's row without one. */
export function cruiserOf(r: NearbyViewerRow): NearbyRow | null {
  if (
    r.c_id === null ||
    r.c_lat === null ||
    r.c_lng === null ||
    r.c_shift_lat === null ||
    r.c_shift_lng === null ||
    r.c_ends_at === null ||
    r.c_age === null
  )
    return null;
  return {
    id: r.c_id,
    lat: r.c_lat,
    lng: r.c_lng,
    shift_lat: r.c_shift_lat,
    shift_lng: r.c_shift_lng,
    d: r.c_d ?? 0,
    display_name: r.c_display_name,
    age: r.c_age,
    photo_url: r.c_photo_url,
    photo_nudity: r.c_photo_nudity,
    photo_sensitive: r.c_photo_sensitive ?? false,
    phone_verified_at: r.c_phone_verified_at,
    right_now_enabled: r.c_right_now_enabled ?? false,
    position: r.c_position,
    looking_for: r.c_looking_for,
    profile_right_now: r.c_profile_right_now,
    session_right_now: r.c_session_right_now,
    ends_at: r.c_ends_at,
    location_precision: r.c_location_precision,
    share_distance: r.c_share_distance,
    share_only_with_matches: r.c_share_only_with_matches,
    hide_exact_location: r.c_hide_exact_location,
    matched: r.c_matched ?? false,
  };
}

/** How many of the k nearest exist and how far the last is: whether a short answer is the end. */
export function nearestNowExtent(db: Db, s: NearbySearch, k: number) {
  return db
    .selectFrom(nearestNow(db, s, k).as('n'))
    .select([sql<number>`count(*)::int`.as('count'), sql<number | null>`max(n.d)`.as('max_d')])
    .executeTakeFirstOrThrow();
}
