import { randomUUID } from 'node:crypto';
import {
  type Actor,
  distanceKm,
  distanceLabel,
  type LatLng,
  SPOTS_RADIUS_KM,
  type Spot,
  type SpotList,
  type SpotProposalBody,
  visibleCheckinCount,
} from '@fmk/core';
import { requireAccess } from '../../platform/access.ts';
import { notFound, tooManyRequests } from '../../platform/errors.ts';
import { CruiseMessages, readCruiser } from './access.ts';
import {
  boxAround,
  countPendingSpotsBy,
  endCheckins,
  findSpot,
  insertCheckin,
  insertSpot,
  listSpots,
  type SpotRow,
} from './repo/places.ts';
import type { CruiseDeps } from './sessions.ts';

const MAX_PENDING_PROPOSALS = 10;

/**
 * A spot as a user sees it. A spot is a public place, so its own position is shown; who is there
 * never is: only a count, and only from 3 people (issue 7 item 4).
 */
export function toSpot(r: SpotRow, viewerId: string, from: LatLng | null, units: 'imperial' | 'metric'): Spot {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    description: r.description,
    lat: r.lat,
    lng: r.lng,
    status: r.status,
    distance: from ? distanceLabel(distanceKm(from, r), units) : null,
    checkins: r.status === 'approved' ? visibleCheckinCount(r.checkins ?? 0) : null,
    myCheckinUntil: r.my_until ? new Date(r.my_until).toISOString() : null,
    mine: r.proposed_by === viewerId,
    createdAt: r.created_at.toISOString(),
  };
}

/** Cruising spots: proposals, the map's list and check-ins (staff review them in spot-review.ts). */
export class SpotService {
  constructor(private readonly deps: CruiseDeps) {}

  /** Approved spots within 25 km, nearest first, then my own proposals (any status). */
  async list(actor: Actor): Promise<SpotList> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    const now = this.deps.clock.now();
    const from = me.lat !== null && me.lng !== null && me.location_active ? { lat: me.lat, lng: me.lng } : null;
    const rows = await listSpots(this.deps.db, userId, from ? boxAround(from, SPOTS_RADIUS_KM) : null, now);
    const near = rows
      .filter((r) => r.status === 'approved' && from && distanceKm(from, r) <= SPOTS_RADIUS_KM)
      .sort((a, b) => (from ? distanceKm(from, a) - distanceKm(from, b) : 0));
    const mine = rows.filter((r) => r.status !== 'approved' && r.proposed_by === userId);
    return {
      items: [...near, ...mine].map((r) => toSpot(r, userId, from, me.preferences.units)),
      hasLocation: from !== null,
    };
  }

  /** A proposal waits for staff (pending). At most 10 waiting per user. */
  async propose(actor: Actor, body: SpotProposalBody): Promise<Spot> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    const now = this.deps.clock.now();
    if ((await countPendingSpotsBy(this.deps.db, userId)) >= MAX_PENDING_PROPOSALS) {
      throw tooManyRequests(CruiseMessages.tooManyProposals);
    }
    const id = randomUUID();
    await insertSpot(this.deps.db, { id, ...body, by: userId, at: now });
    const row = await findSpot(this.deps.db, userId, id, now);
    return toSpot(row!, userId, this.from(me), me.preferences.units);
  }

  /** Checks in to an approved spot for `minutes`; a check-in elsewhere ends (one spot at a time). */
  checkIn(actor: Actor, spotId: string, minutes: number): Promise<Spot> {
    return this.atApprovedSpot(actor, spotId, (userId, now) =>
      this.deps.db.transaction().execute(async (trx) => {
        await endCheckins(trx, userId, now);
        await insertCheckin(trx, {
          id: randomUUID(),
          spotId,
          userId,
          at: now,
          until: new Date(now.getTime() + minutes * 60_000),
        });
      }),
    );
  }

  checkOut(actor: Actor, spotId: string): Promise<Spot> {
    return this.atApprovedSpot(actor, spotId, (userId, now) => endCheckins(this.deps.db, userId, now, spotId));
  }

  /** Does `change` at an approved spot (any other is not found to him) and answers the spot as it is then. */
  private async atApprovedSpot(
    actor: Actor,
    spotId: string,
    change: (userId: string, now: Date) => Promise<void>,
  ): Promise<Spot> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    const now = this.deps.clock.now();
    const spot = await findSpot(this.deps.db, userId, spotId, now);
    if (spot?.status !== 'approved') throw notFound(CruiseMessages.spotNotFound);
    await change(userId, now);
    const row = await findSpot(this.deps.db, userId, spotId, now);
    return toSpot(row!, userId, this.from(me), me.preferences.units);
  }

  private from(me: { lat: number | null; lng: number | null; location_active: boolean | null }): LatLng | null {
    return me.lat !== null && me.lng !== null && me.location_active ? { lat: me.lat, lng: me.lng } : null;
  }
}
