import { randomUUID } from 'node:crypto';
import {
  type Actor,
  DAY,
  distanceKm,
  distanceLabel,
  EVENT_MAX_DAYS_AHEAD,
  type EventBody,
  type EventComment,
  type EventDetail,
  type EventList,
  type EventSummary,
  type LatLng,
  MINUTE,
  SPOTS_RADIUS_KM,
  snap,
} from '@fmk/core';
import { requireAccess } from '../../platform/access.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { userCard, type Viewer } from '../../platform/present.ts';
import { CruiseMessages, readCruiser } from './access.ts';
import {
  addAttendee,
  boxAround,
  cancelEvent,
  type EventRow,
  findEvent,
  findSpot,
  insertComment,
  insertEvent,
  listComments,
  listEvents,
  removeAttendee,
} from './repo/places.ts';
import type { CruiseDeps } from './sessions.ts';

/** A start a little in the past is accepted: the form was filled in a minute ago. */
const START_GRACE_MS = 5 * MINUTE;

export function toEventSummary(
  r: EventRow,
  viewer: Viewer & { id: string },
  from: LatLng | null,
  units: 'imperial' | 'metric',
): EventSummary {
  const viewerId = viewer.id;
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    placeName: r.place_name,
    spotId: r.spot_id,
    lat: r.lat,
    lng: r.lng,
    distance: from ? distanceLabel(distanceKm(from, r), units) : null,
    startsAt: r.starts_at.toISOString(),
    endsAt: r.ends_at.toISOString(),
    status: r.status,
    attendees: r.attendees ?? 0,
    attending: Boolean(r.attending),
    mine: r.creator_id === viewerId,
    creator: userCard(
      {
        id: r.creator_id,
        display_name: r.creator_name,
        photo_url: r.creator_photo,
        photo_nudity: r.creator_photo_nudity,
        photo_sensitive: r.creator_photo_sensitive,
      },
      viewer,
    ),
  };
}

/** Group events (issue 7 item 5): near me, create, attend / leave, comment, cancel. */
export class EventService {
  constructor(private readonly deps: CruiseDeps) {}

  async list(actor: Actor): Promise<EventList> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    const from = fromOf(me);
    if (!from) return { items: [], hasLocation: false };
    const rows = await listEvents(this.deps.db, userId, boxAround(from, SPOTS_RADIUS_KM), this.deps.clock.now());
    return {
      items: rows
        .filter((r) => distanceKm(from, r) <= SPOTS_RADIUS_KM)
        .map((r) => toEventSummary(r, actor, from, me.preferences.units)),
      hasLocation: true,
    };
  }

  /**
   * At an approved spot (its name and position) or at a place: a place's position is kept only
   * as its 500 m cell centre, as the creator's own position often is the place.
   */
  async create(actor: Actor, body: EventBody): Promise<EventDetail> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const now = this.deps.clock.now();
    const startsAt = new Date(body.startsAt);
    if (startsAt.getTime() < now.getTime() - START_GRACE_MS)
      throw badRequest(CruiseMessages.startTooEarly, { startsAt: CruiseMessages.startTooEarly });
    if (startsAt.getTime() > now.getTime() + EVENT_MAX_DAYS_AHEAD * DAY) {
      throw badRequest(CruiseMessages.startTooLate, { startsAt: CruiseMessages.startTooLate });
    }
    let where: { spotId: string | null; placeName: string; lat: number; lng: number };
    if (body.spotId) {
      const spot = await findSpot(this.deps.db, userId, body.spotId, now);
      if (spot?.status !== 'approved') throw badRequest(CruiseMessages.spotNotFound, { spotId: CruiseMessages.spotNotFound });
      where = { spotId: spot.id, placeName: spot.name, lat: spot.lat, lng: spot.lng };
    } else {
      const place = body.place!;
      where = { spotId: null, placeName: place.name, ...snap(place) };
    }
    const id = randomUUID();
    await this.deps.db.transaction().execute(async (trx) => {
      await insertEvent(trx, {
        id,
        creatorId: userId,
        ...where,
        title: body.title,
        description: body.description,
        startsAt,
        endsAt: new Date(startsAt.getTime() + body.durationMinutes * MINUTE),
        at: now,
      });
      await addAttendee(trx, id, userId, now);
    });
    return this.detail(actor, id);
  }

  async detail(actor: Actor, eventId: string): Promise<EventDetail> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    const row = await findEvent(this.deps.db, userId, eventId);
    if (!row) throw notFound(CruiseMessages.eventNotFound);
    const comments = await listComments(this.deps.db, userId, eventId);
    return {
      ...toEventSummary(row, actor, fromOf(me), me.preferences.units),
      comments: comments.map(
        (c): EventComment => ({
          id: c.id,
          body: c.body,
          createdAt: c.created_at.toISOString(),
          author: userCard({ ...c, id: c.user_id }, actor),
        }),
      ),
    };
  }

  /** An event that can still be joined or talked about: scheduled and not over. */
  private async open(actor: Actor, eventId: string): Promise<EventRow> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const row = await findEvent(this.deps.db, userId, eventId);
    if (!row) throw notFound(CruiseMessages.eventNotFound);
    if (row.status === 'cancelled') throw conflict(CruiseMessages.eventCancelled);
    if (row.ends_at <= this.deps.clock.now()) throw conflict(CruiseMessages.eventOver);
    return row;
  }

  async attend(actor: Actor, eventId: string): Promise<EventDetail> {
    const userId = actor.id;
    await this.open(actor, eventId);
    await addAttendee(this.deps.db, eventId, userId, this.deps.clock.now());
    return this.detail(actor, eventId);
  }

  /** Leaving is always possible except for the creator, who cancels instead. */
  async leave(actor: Actor, eventId: string): Promise<EventDetail> {
    const userId = actor.id;
    const row = await this.open(actor, eventId);
    if (row.creator_id === userId) throw conflict('You created this event: cancel it instead.');
    await removeAttendee(this.deps.db, eventId, userId);
    return this.detail(actor, eventId);
  }

  async comment(actor: Actor, eventId: string, body: string): Promise<EventComment> {
    const userId = actor.id;
    await this.open(actor, eventId);
    const id = randomUUID();
    const now = this.deps.clock.now();
    await insertComment(this.deps.db, { id, eventId, userId, body, at: now });
    const detail = await this.detail(actor, eventId);
    const c = detail.comments.find((x) => x.id === id);
    if (!c) throw notFound(CruiseMessages.eventNotFound);
    return c;
  }

  /** Only the creator cancels; cancelling twice is fine. */
  async cancel(actor: Actor, eventId: string): Promise<EventDetail> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const row = await findEvent(this.deps.db, userId, eventId);
    if (!row) throw notFound(CruiseMessages.eventNotFound);
    if (row.creator_id !== userId) throw forbidden(CruiseMessages.notCreator);
    await cancelEvent(this.deps.db, eventId, this.deps.clock.now());
    return this.detail(actor, eventId);
  }
}

function fromOf(me: { lat: number | null; lng: number | null; location_active: boolean | null }): LatLng | null {
  return me.lat !== null && me.lng !== null && me.location_active ? { lat: me.lat, lng: me.lng } : null;
}
