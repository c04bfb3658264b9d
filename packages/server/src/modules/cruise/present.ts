import type { LatLng, NearbyCruiser } from '@fmk/core';
import { distanceViewOf, listedUser, placeOf, presentUser, type Viewer } from '../../platform/present.ts';
import type { NearbyRow } from './repo/nearby.ts';

/**
 * A nearby row as the client sees it: the shared privacy step (platform/present.ts), his place
 * (core placeCentre: the centre of his own 1 km square, never his cell) only when he chose exact
 * precision and this viewer may learn it (approximate, a hidden
 * exact location or distance for matches only list him without a pin), his now
 * profile, and the session's Right Now text before the profile's.
 */
export function toNearbyCruiser(r: NearbyRow, who: Viewer, viewer: LatLng, units: 'imperial' | 'metric'): NearbyCruiser {
  const p = presentUser({ ...r, right_now: r.session_right_now ?? r.profile_right_now }, who, { centre: viewer, units });
  return {
    ...listedUser(p),
    // Core's cruise.seeArea: a pin only for exact precision when this viewer may learn his place.
    cell: r.location_precision === 'approximate' || distanceViewOf(r) !== 'cell' ? null : placeOf(r),
    position: r.position,
    lookingFor: Array.isArray(r.looking_for) ? r.looking_for.filter((x): x is string => typeof x === 'string') : [],
    rightNow: p.rightNow,
    endsAt: r.ends_at.toISOString(),
  };
}
