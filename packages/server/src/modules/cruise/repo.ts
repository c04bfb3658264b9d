import { type CruiseCounters, type CruisePeriod, type LatLng, type StaffRecord, sessionMinutes } from '@fmk/core';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { notBlocked } from '../../platform/blocks/repo.ts';

/**
 * SQL of cruise sessions, counters and nearby cruisers. A session is live while
 * `ended_at is null and ends_at > now`: every read says so, so a session is over at ends_at
 * whether or not the sweeper has run yet.
 */

/** The caller as every cruise rule needs him (access, tier, consent, location). */
export function findCruiser(db: Db, userId: string) {
  return cruiserQuery(db, userId).executeTakeFirst();
}

export function cruiserQuery(db: Db, userId: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_settings as s', 's.user_id', 'u.id')
    .leftJoin('user_locations as ul', 'ul.user_id', 'u.id')
    .select([
      'u.id',
      'u.is_active',
      'u.app_mode',
      'u.cruising_enabled',
      'u.current_mode',
      'u.subscription_tier',
      'u.has_lifetime_premium',
      'u.preferences',
      's.location_sharing_consent',
      's.location_precision',
      'ul.lat',
      'ul.lng',
      'ul.is_active as location_active',
      'ul.last_updated',
    ])
    .where('u.id', '=', userId);
}
export type Cruiser = NonNullable<Awaited<ReturnType<typeof findCruiser>>>;

/** A user's tier columns (effectiveTier reads them): the sweeper finalizes with his tier. */
export function findTier(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['subscription_tier', 'has_lifetime_premium'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

export function findStaff(db: Db, userId: string): Promise<StaffRecord | null> {
  return db
    .selectFrom('admin_users')
    .select(['role', 'is_active'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
    .then((r) => (r ? { role: r.role, isActive: r.is_active } : null));
}

/** The user's location precision (user settings: exact / approximate), created with defaults if missing. */
export async function setLocationPrecision(db: Db, userId: string, precision: 'exact' | 'approximate', at: Date): Promise<void> {
  await db
    .insertInto('user_settings')
    .values({
      user_id: userId,
      gender_preferences: '[]',
      relationship_status_preferences: '[]',
      location_precision: precision,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ location_precision: precision, updated_at: at }))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Sessions and counters.

/**
 * The user's counters row, created if missing, locked for the transaction: every change to a
 * user's sessions or counters takes this lock first (start, end, sweeper), so two concurrent
 * starts cannot both pass the quota and the lock order is always counters → sessions.
 */
export async function lockCounters(trx: Db, userId: string, period: CruisePeriod): Promise<CruiseCounters> {
  await trx
    .insertInto('cruise_counters')
    .values({
      user_id: userId,
      period,
      period_start: null,
      starts: 0,
      sessions: 0,
      minutes: 0,
      total_sessions: 0,
      total_minutes: 0,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const r = await trx
    .selectFrom('cruise_counters')
    .selectAll()
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return toCounters(r);
}

export async function readCounters(db: Db, userId: string): Promise<CruiseCounters | null> {
  const r = await db.selectFrom('cruise_counters').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r ? toCounters(r) : null;
}

function toCounters(r: {
  period: CruisePeriod;
  period_start: Date | null;
  starts: number;
  sessions: number;
  minutes: number;
  total_sessions: number;
  total_minutes: number;
  last_start_at: Date | null;
}): CruiseCounters {
  return {
    period: r.period,
    periodStart: r.period_start,
    starts: r.starts,
    sessions: r.sessions,
    minutes: r.minutes,
    totalSessions: r.total_sessions,
    totalMinutes: r.total_minutes,
    lastStartAt: r.last_start_at,
  };
}

export async function saveCounters(trx: Db, userId: string, c: CruiseCounters): Promise<void> {
  await trx
    .updateTable('cruise_counters')
    .set({
      period: c.period,
      period_start: c.periodStart,
      starts: c.starts,
      sessions: c.sessions,
      minutes: c.minutes,
      total_sessions: c.totalSessions,
      total_minutes: c.totalMinutes,
      last_start_at: c.lastStartAt,
    })
    .where('user_id', '=', userId)
    .execute();
}

/** The user's open session (ended_at null), live or past its end but not finalized yet. */
export function findOpenSession(db: Db, userId: string) {
  return db
    .selectFrom('cruise_sessions')
    .select(['id', 'started_at', 'ends_at', 'right_now'])
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
}

export async function insertSession(
  trx: Db,
  s: { id: string; userId: string; startedAt: Date; endsAt: Date; rightNow: string | null },
): Promise<void> {
  await trx
    .insertInto('cruise_sessions')
    .values({ id: s.id, user_id: s.userId, started_at: s.startedAt, ends_at: s.endsAt, right_now: s.rightNow })
    .execute();
}

/**
 * Finalizes the user's open session: ended at `at`, or at its end if that came first, with
 * min(elapsed, 30) minutes (core sessionMinutes). The UPDATE keeps `ended_at is null`, so a
 * session is finalized once whoever gets there first (user, sweeper, another instance).
 * Returns the minutes, or null when there was nothing to finalize.
 */
export async function finalizeSession(trx: Db, userId: string, at: Date, opts: { onlyExpired: boolean }): Promise<number | null> {
  const open = await findOpenSession(trx, userId);
  if (!open || (opts.onlyExpired && open.ends_at > at)) return null;
  const expired = open.ends_at <= at;
  const endedAt = expired ? open.ends_at : at;
  const minutes = sessionMinutes(open.started_at, endedAt);
  const done = await trx
    .updateTable('cruise_sessions')
    .set({ ended_at: endedAt, minutes, end_reason: expired ? 'expired' : 'user' })
    .where('id', '=', open.id)
    .where('ended_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return done ? minutes : null;
}

/** Users with a session past its end and not finalized (the sweeper's work list). */
export async function dueSessionUsers(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('cruise_sessions')
    .select('user_id')
    .where('ended_at', 'is', null)
    .where('ends_at', '<=', now)
    .orderBy('ends_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * Cruising puts the user in now mode (his now profile is what the list shows): the profile mode,
 * and the mode of his location row, which the nearby index covers. Returns whether it changed.
 */
export async function switchToNowMode(trx: Db, userId: string, at: Date): Promise<boolean> {
  const changed = await trx
    .updateTable('users')
    .set({ current_mode: 'now', updated_at: at })
    .where('id', '=', userId)
    .where('current_mode', '<>', 'now')
    .executeTakeFirst();
  await trx.updateTable('user_locations').set({ mode: 'now' }).where('user_id', '=', userId).execute();
  if (Number(changed.numUpdatedRows) === 0) return false;
  await trx
    .insertInto('mode_events')
    .values({ user_id: userId, from_label: 'Dating', to_label: 'Hookup', trigger: 'manual', created_at: at })
    .execute();
  return true;
}

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
    .select(['ul.user_id', 'ul.lat', 'ul.lng', d.as('d')])
    .where('ul.mode', '=', 'now')
    .where('ul.is_active', '=', true)
    .where('ul.last_updated', '>=', s.freshSince)
    .where('ul.user_id', '<>', s.viewerId)
    .orderBy(d)
    .limit(k);
}

/**
 * Nearby cruisers in one statement: among the k nearest now-mode locations, those within the
 * radius with a live session, an active account that is in now mode, consent to share a
 * location, not incognito and not blocked either way; n at most, nearest first.
 */
export function nearbyQuery(db: Db, s: NearbySearch, n: number, k: number) {
  return db
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
    .where(sql<SqlBool>`coalesce(st.incognito_mode, false) = false`)
    .where(notBlocked(s.viewerId, 'ul.user_id'))
    .select([
      'ul.user_id as id',
      'ul.lat',
      'ul.lng',
      'ul.d',
      'u.display_name',
      'u.age',
      'u.photo_url',
      'u.right_now_enabled',
      sql<string | null>`u.now_profile->>'position'`.as('position'),
      sql<string[] | null>`u.now_profile->'lookingFor'`.as('looking_for'),
      sql<string | null>`u.now_profile->>'rightNow'`.as('profile_right_now'),
      'cs.right_now as session_right_now',
      'cs.ends_at',
      'st.location_precision',
    ])
    .orderBy('ul.d')
    .orderBy('ul.user_id')
    .limit(n);
}
export type NearbyRow = Awaited<ReturnType<ReturnType<typeof nearbyQuery>['execute']>>[number];

/** The viewer's own stored point (his cell centre), read inside the statement. */
export function viewerPoint(viewerId: string): RawBuilder<string> {
  return sql<string>`(select vl.geo from user_locations vl where vl.user_id = ${viewerId})`;
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
      'r.d as c_d',
      'r.display_name as c_display_name',
      'r.age as c_age',
      'r.photo_url as c_photo_url',
      'r.right_now_enabled as c_right_now_enabled',
      'r.position as c_position',
      'r.looking_for as c_looking_for',
      'r.profile_right_now as c_profile_right_now',
      'r.session_right_now as c_session_right_now',
      'r.ends_at as c_ends_at',
      'r.location_precision as c_location_precision',
    ])
    .orderBy('r.d')
    .orderBy('r.id');
}
export type NearbyViewerRow = Awaited<ReturnType<ReturnType<typeof nearbyForViewerQuery>['execute']>>[number];

/** The cruiser of a joined row, or null for the viewer's row without one. */
export function cruiserOf(r: NearbyViewerRow): NearbyRow | null {
  if (r.c_id === null || r.c_lat === null || r.c_lng === null || r.c_ends_at === null || r.c_age === null) return null;
  return {
    id: r.c_id,
    lat: r.c_lat,
    lng: r.c_lng,
    d: r.c_d ?? 0,
    display_name: r.c_display_name,
    age: r.c_age,
    photo_url: r.c_photo_url,
    right_now_enabled: r.c_right_now_enabled ?? false,
    position: r.c_position,
    looking_for: r.c_looking_for,
    profile_right_now: r.c_profile_right_now,
    session_right_now: r.c_session_right_now,
    ends_at: r.c_ends_at,
    location_precision: r.c_location_precision,
  };
}

/** How many of the k nearest exist and how far the last is: whether a short answer is the end. */
export function nearestNowExtent(db: Db, s: NearbySearch, k: number) {
  return db
    .selectFrom(nearestNow(db, s, k).as('n'))
    .select([sql<number>`count(*)::int`.as('count'), sql<number | null>`max(n.d)`.as('max_d')])
    .executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------------------------------------
// Spots and check-ins.

/** A latitude/longitude box around a point, wide enough for `km` (the exact distance is checked after). */
export function boxAround(p: LatLng, km: number) {
  const dLat = km / 111.195;
  const dLng = km / (111.195 * Math.max(0.01, Math.cos((p.lat * Math.PI) / 180)));
  return { minLat: p.lat - dLat, maxLat: p.lat + dLat, minLng: p.lng - dLng, maxLng: p.lng + dLng };
}
export type Box = ReturnType<typeof boxAround>;

const spotColumns = [
  's.id',
  's.name',
  's.kind',
  's.description',
  's.lat',
  's.lng',
  's.status',
  's.proposed_by',
  's.created_at',
] as const;

/** Spots with their live check-in count and the viewer's own check-in. */
function spotsWithCheckins(db: Db, viewerId: string, now: Date) {
  return db
    .selectFrom('cruising_spots as s')
    .select((eb) => [
      ...spotColumns,
      eb
        .selectFrom('spot_checkins as c')
        .select(sql<number>`count(distinct c.user_id)::int`.as('n'))
        .whereRef('c.spot_id', '=', 's.id')
        .where('c.until', '>', now)
        .as('checkins'),
      eb
        .selectFrom('spot_checkins as c')
        .select(sql<Date>`max(c.until)`.as('until'))
        .whereRef('c.spot_id', '=', 's.id')
        .where('c.user_id', '=', viewerId)
        .where('c.until', '>', now)
        .as('my_until'),
    ]);
}
export type SpotRow = Awaited<ReturnType<ReturnType<typeof spotsWithCheckins>['execute']>>[number];

/** Approved spots in the box, and the viewer's own proposals wherever they are. */
export function listSpots(db: Db, viewerId: string, box: Box | null, now: Date) {
  return spotsWithCheckins(db, viewerId, now)
    .where((eb) =>
      eb.or([
        ...(box
          ? [
              eb.and([
                eb('s.status', '=', 'approved'),
                eb('s.lat', '>=', box.minLat),
                eb('s.lat', '<=', box.maxLat),
                eb('s.lng', '>=', box.minLng),
                eb('s.lng', '<=', box.maxLng),
              ]),
            ]
          : []),
        eb('s.proposed_by', '=', viewerId),
      ]),
    )
    .limit(500)
    .execute();
}

export function findSpot(db: Db, viewerId: string, spotId: string, now: Date) {
  return spotsWithCheckins(db, viewerId, now).where('s.id', '=', spotId).executeTakeFirst();
}

export function pendingSpots(db: Db, now: Date) {
  return spotsWithCheckins(db, '', now).where('s.status', '=', 'pending').orderBy('s.created_at').limit(200).execute();
}

export async function countPendingSpotsBy(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom('cruising_spots')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('proposed_by', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return r.n;
}

export async function insertSpot(
  db: Db,
  s: { id: string; name: string; kind: SpotRow['kind']; description: string; lat: number; lng: number; by: string; at: Date },
): Promise<void> {
  await db
    .insertInto('cruising_spots')
    .values({
      id: s.id,
      name: s.name,
      kind: s.kind,
      description: s.description,
      lat: s.lat,
      lng: s.lng,
      status: 'pending',
      proposed_by: s.by,
      created_at: s.at,
    })
    .execute();
}

export async function setSpotStatus(
  db: Db,
  spotId: string,
  status: 'approved' | 'rejected',
  by: string,
  at: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('cruising_spots')
    .set({ status, reviewed_by: by, reviewed_at: at })
    .where('id', '=', spotId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Ends the user's current check-ins (at one spot at a time), or only the one at `spotId`. */
export async function endCheckins(db: Db, userId: string, now: Date, spotId?: string): Promise<void> {
  await db
    .updateTable('spot_checkins')
    .set({ until: now })
    .where('user_id', '=', userId)
    .where('until', '>', now)
    .$if(spotId !== undefined, (qb) => qb.where('spot_id', '=', spotId!))
    .execute();
}

export async function insertCheckin(
  db: Db,
  c: { id: string; spotId: string; userId: string; at: Date; until: Date },
): Promise<void> {
  await db
    .insertInto('spot_checkins')
    .values({ id: c.id, spot_id: c.spotId, user_id: c.userId, checked_in_at: c.at, until: c.until })
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Group events.

/** Events with their creator, attendee count and whether the viewer attends; blocked creators left out. */
function eventsFor(db: Db, viewerId: string) {
  return db
    .selectFrom('group_events as e')
    .innerJoin('users as c', 'c.id', 'e.creator_id')
    .where(notBlocked(viewerId, 'e.creator_id'))
    .where('c.is_active', '=', true)
    .select((eb) => [
      'e.id',
      'e.title',
      'e.description',
      'e.place_name',
      'e.spot_id',
      'e.lat',
      'e.lng',
      'e.starts_at',
      'e.ends_at',
      'e.status',
      'e.creator_id',
      'c.display_name as creator_name',
      'c.photo_url as creator_photo',
      eb
        .selectFrom('event_attendees as a')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('a.event_id', '=', 'e.id')
        .as('attendees'),
      eb
        .exists(
          eb
            .selectFrom('event_attendees as a')
            .select('a.user_id')
            .whereRef('a.event_id', '=', 'e.id')
            .where('a.user_id', '=', viewerId),
        )
        .as('attending'),
    ]);
}
export type EventRow = Awaited<ReturnType<ReturnType<typeof eventsFor>['execute']>>[number];

/** Events not over yet in the box, soonest first. */
export function listEvents(db: Db, viewerId: string, box: Box, now: Date) {
  return eventsFor(db, viewerId)
    .where('e.ends_at', '>', now)
    .where('e.lat', '>=', box.minLat)
    .where('e.lat', '<=', box.maxLat)
    .where('e.lng', '>=', box.minLng)
    .where('e.lng', '<=', box.maxLng)
    .orderBy('e.starts_at')
    .orderBy('e.id')
    .limit(100)
    .execute();
}

export function findEvent(db: Db, viewerId: string, eventId: string) {
  return eventsFor(db, viewerId).where('e.id', '=', eventId).executeTakeFirst();
}

export async function insertEvent(
  db: Db,
  e: {
    id: string;
    creatorId: string;
    spotId: string | null;
    title: string;
    description: string;
    placeName: string;
    lat: number;
    lng: number;
    startsAt: Date;
    endsAt: Date;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('group_events')
    .values({
      id: e.id,
      creator_id: e.creatorId,
      spot_id: e.spotId,
      title: e.title,
      description: e.description,
      place_name: e.placeName,
      lat: e.lat,
      lng: e.lng,
      starts_at: e.startsAt,
      ends_at: e.endsAt,
      created_at: e.at,
    })
    .execute();
}

export async function addAttendee(db: Db, eventId: string, userId: string, at: Date): Promise<void> {
  await db
    .insertInto('event_attendees')
    .values({ event_id: eventId, user_id: userId, joined_at: at })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeAttendee(db: Db, eventId: string, userId: string): Promise<void> {
  await db.deleteFrom('event_attendees').where('event_id', '=', eventId).where('user_id', '=', userId).execute();
}

export async function cancelEvent(db: Db, eventId: string, at: Date): Promise<void> {
  await db
    .updateTable('group_events')
    .set({ status: 'cancelled', cancelled_at: at })
    .where('id', '=', eventId)
    .where('status', '=', 'scheduled')
    .execute();
}

export async function insertComment(
  db: Db,
  c: { id: string; eventId: string; userId: string; body: string; at: Date },
): Promise<void> {
  await db
    .insertInto('event_comments')
    .values({ id: c.id, event_id: c.eventId, user_id: c.userId, body: c.body, created_at: c.at })
    .execute();
}

/** The latest 100 comments, oldest first, without authors blocked either way. */
export async function listComments(db: Db, viewerId: string, eventId: string) {
  const rows = await db
    .selectFrom('event_comments as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'm.body', 'm.created_at', 'm.user_id', 'u.display_name', 'u.photo_url'])
    .where('m.event_id', '=', eventId)
    .where('u.is_active', '=', true)
    .where(notBlocked(viewerId, 'm.user_id'))
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(100)
    .execute();
  return rows.reverse();
}
