import type { Actor, Subject } from './access-vocabulary.ts';

/**
 * Where another man may be listed and how much of his place an actor learns: the location half of
 * the access rules (can() in access.ts asks these), kept apart so each file stays readable.
 */

/**
 * How much of his distance an actor learns (privacy.shareDistance and the locationSafety group):
 * 'none' when he does not share it, or shares it only with matches and the actor is not one;
 * 'area' (a label in 5 km steps from his 5 km area, geo.ts) when he hides his exact location;
 * otherwise 'cell' (the usual label between cell centres).
 */
export type DistanceView = 'none' | 'area' | 'cell';

export function distanceView(
  set: Pick<Subject['settings'], 'shareDistance' | 'shareOnlyWithMatches' | 'hideExactLocation'>,
  matched: boolean,
): DistanceView {
  if (!set.shareDistance || (set.shareOnlyWithMatches && !matched)) return 'none';
  return set.hideExactLocation ? 'area' : 'cell';
}

/**
 * Whether lists place him by his 5 km area rather than his cell: the point the grid and nearby
 * lists order and filter by (user_locations.geo). So when only his area may be learnt, or
 * nothing by men who are not his matches, the order of a list and its distance filter tell no
 * more than his area either; every viewer, his matches included, sees him in that order.
 */
export function placedByArea(set: Pick<Subject['settings'], 'shareOnlyWithMatches' | 'hideExactLocation'>): boolean {
  return set.shareOnlyWithMatches || set.hideExactLocation;
}

/**
 * Who may appear in the actor's grid, beyond search filters (age, distance, a fresh location):
 * a complete profile, sharing his location (locationSafety.shareLocationEnabled), not incognito,
 * shown in the actor's current mode (spec section 3 "modeVisibility"). Self, blocks and inactive accounts were refused before.
 */
export function listedInGrid(actor: Actor, s: Subject): boolean {
  const mv = s.settings.modeVisibility;
  const shownInMode = actor.currentMode === 'dating' ? mv.showInDating : mv.showInNow;
  const set = s.settings;
  return s.profileComplete && set.shareLocationEnabled && !set.incognito && set.profileVisibility === 'public' && shownInMode;
}

/**
 * Who appears among nearby cruisers (spec section 7 "List active nearby users": mode now): a
 * complete profile in now mode with a live session, sharing a location (consent and
 * locationSafety.shareLocationEnabled), not incognito.
 */
export function listedNearby(s: Subject): boolean {
  const set = s.settings;
  return (
    s.profileComplete &&
    s.currentMode === 'now' &&
    s.cruising &&
    set.locationSharingConsent &&
    set.shareLocationEnabled &&
    !set.incognito &&
    set.profileVisibility === 'public'
  );
}
