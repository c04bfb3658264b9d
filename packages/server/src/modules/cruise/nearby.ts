import { type Actor, NEARBY_WINDOW_MS, type NearbyPage, type NearbyQuery } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { unauthorized } from '../../platform/errors.ts';
import { chordForKm } from '../../platform/geo.ts';
import { toNearbyCruiser } from './present.ts';
import {
  cruiserOf,
  type NearbyRow,
  type NearbySearch,
  nearbyForViewerQuery,
  nearbyQuery,
  nearestNowExtent,
  viewerPoint,
} from './repo/nearby.ts';
import type { CruiseDeps } from './sessions.ts';

/** First look among this many nearest now-mode locations per row wanted. */
export const NEAREST_FACTOR = 4;
const MAX_NEAREST = 2_000_000;

/**
 * Who searches from where: from the viewer's own stored cell centre (read in the statement), the
 * radius as a chord, the 30-minute window.
 */
export function nearbySearch(viewerId: string, radiusKm: number, now: Date): NearbySearch {
  return {
    viewerId,
    point: viewerPoint(viewerId),
    maxChord: chordForKm(radiusKm),
    freshSince: new Date(now.getTime() - NEARBY_WINDOW_MS),
    now,
  };
}

/**
 * The rest of the first n nearby cruisers when the first look (the k = 4n nearest now-mode
 * locations) came back short: while those k did not already cover the radius, k grows eightfold
 * (as the grid does). Sparse areas only; a city answers in the first statement.
 */
export async function widenNearby(db: Db, s: NearbySearch, n: number, first: NearbyRow[]): Promise<NearbyRow[]> {
  let rows = first;
  for (let k = n * NEAREST_FACTOR; rows.length < n && k < MAX_NEAREST; k *= 8) {
    const extent = await nearestNowExtent(db, s, k);
    if (extent.count < k || extent.max_d === null || Number(extent.max_d) > s.maxChord) return rows;
    rows = await nearbyQuery(db, s, n, k * 8).execute();
  }
  return rows;
}

/** GET /cruise/nearby (issue 7 item 2; spec section 7 "List active nearby users"). */
export class NearbyService {
  constructor(private readonly deps: CruiseDeps) {}

  async list(actor: Actor, q: NearbyQuery): Promise<NearbyPage> {
    // A list of other users (an unfinished profile sees none), then the check of every cruise call.
    requireAccess(actor, 'users.browse');
    requireAccess(actor, 'cruise.use');
    const now = this.deps.clock.now();
    const s = nearbySearch(actor.id, q.radiusKm, now);
    const joined = await nearbyForViewerQuery(this.deps.db, s, q.limit, q.limit * NEAREST_FACTOR).execute();
    const me = joined[0];
    if (!me) throw unauthorized();
    const units = me.preferences.units;
    // Without consent or a location the list is empty, and says why.
    if (!me.location_sharing_consent || me.lat === null || me.lng === null || !me.location_active) {
      return { items: [], hasLocation: false, me: null, radiusKm: q.radiusKm };
    }
    const centre = { lat: me.lat, lng: me.lng };
    const radiusKm = q.radiusKm;
    const first = joined.map(cruiserOf).filter((r): r is NearbyRow => r !== null);
    const rows = await widenNearby(this.deps.db, s, q.limit, first);
    return {
      items: rows.map((r) => toNearbyCruiser(r, actor, centre, units)),
      hasLocation: true,
      me: centre,
      radiusKm,
    };
  }
}
