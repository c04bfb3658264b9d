import type { LatLng } from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';
import { notBlocked } from '../../../platform/blocks/repo.ts';

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
      'c.photo_nudity as creator_photo_nudity',
      'c.photo_sensitive as creator_photo_sensitive',
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
    .select([
      'm.id',
      'm.body',
      'm.created_at',
      'm.user_id',
      'u.display_name',
      'u.photo_url',
      'u.photo_nudity',
      'u.photo_sensitive',
    ])
    .where('m.event_id', '=', eventId)
    .where('u.is_active', '=', true)
    .where(notBlocked(viewerId, 'm.user_id'))
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(100)
    .execute();
  return rows.reverse();
}
