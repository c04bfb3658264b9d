import { DEFAULT_SETTINGS, distanceView, type LatLng, observedAreaDistanceLabel, observedDistanceLabel } from '@fmk/core';
import { thumbnailURL } from './media/files.ts';

/**
 * Another user as a repo row carries him into a list (grid, nearby, matches, likes, conversations,
 * events, the blocked list). Name and photo always; each optional column adds its field.
 */
export interface OtherUserRow {
  id: string;
  display_name: string | null;
  photo_url: string | null;
  age?: number | null;
  /** His stored cell centre: the answer carries a distance label from it, never the point. */
  lat?: number;
  lng?: number;
  is_online?: boolean | null;
  /** His showOnlineStatus; null (no settings row yet) is its default, shown. Not selected: hidden. */
  show_online_status?: boolean | null;
  right_now_enabled?: boolean | null;
  /** His Right Now text, shown only while he has Right Now on. */
  right_now?: string | null;
  /** When he verified his phone number (the verified badge); the number itself is never selected. */
  phone_verified_at?: Date | null;
  /** His distance sharing (privacy); false: no distance label at all. Null or unselected: shared. */
  share_distance?: boolean | null;
  /** His locationSafety.shareOnlyWithMatches: a label only when `matched`. Null or unselected: the default. */
  share_only_with_matches?: boolean | null;
  /** His locationSafety.hideExactLocation: a label from his 5 km area only. Null or unselected: the default. */
  hide_exact_location?: boolean | null;
  /** He and the viewer are matched (selected where share_only_with_matches needs it). */
  matched?: boolean | null;
  /** His cruising privacy; true: no Right Now in lists, which strangers read. */
  cruising_private?: boolean | null;
}

/** Who looks: his own cell centre and his units, for distance labels. */
export interface Onlooker {
  centre: LatLng;
  units: 'imperial' | 'metric';
}

export interface PresentedUser {
  uid: string;
  displayName: string | null;
  age: number | null;
  /** The photo's thumbnail (a list never needs the full photo, up to 1600 px). */
  photoURL: string | null;
  /**
   * Bucketed, between cell centres ('< 1 km', '5 km', '50+ km'), or from his 5 km area in steps of
   * 5 ('< 5 km', '10 km') when he hides his exact location; null without an onlooker or when he
   * does not share it with this viewer.
   */
  distance: string | null;
  isOnline: boolean | null;
  rightNow: string | null;
  /** The verified badge: he confirmed a phone number by a texted code. */
  verified: boolean;
}

/**
 * The one privacy step between a row about another user and an answer (the present step of a read):
 * a distance label between cell centres, never coordinates or a number, only as much of it as
 * core's `distanceView` gives this viewer (none, his area, his cell); online status only when
 * he shows it (core's presence.see); Right Now only while he has it on; the photo as a thumbnail;
 * whether he is verified, never the number that made him so.
 * Answers take the fields their schema has.
 */
export function presentUser(row: OtherUserRow, onlooker?: Onlooker): PresentedUser {
  const shown = row.show_online_status !== undefined && row.show_online_status !== false;
  // Core's grid.seeDistance (distanceView) and profile.seeRightNow, for rows the SQL already admitted.
  const view = distanceViewOf(row);
  return {
    uid: row.id,
    displayName: row.display_name,
    age: row.age ?? null,
    photoURL: thumbnailURL(row.photo_url),
    distance:
      onlooker && view !== 'none' && row.lat !== undefined && row.lng !== undefined
        ? (view === 'area' ? observedAreaDistanceLabel : observedDistanceLabel)(
            onlooker.centre,
            { lat: row.lat, lng: row.lng },
            onlooker.units,
          )
        : null,
    isOnline: shown ? (row.is_online ?? null) : null,
    rightNow: row.right_now_enabled && !row.cruising_private ? (row.right_now ?? null) : null,
    verified: row.phone_verified_at != null,
  };
}

/** How much of his distance the row's viewer learns (core `distanceView`), unselected columns at their defaults. */
export function distanceViewOf(row: OtherUserRow) {
  const safety = DEFAULT_SETTINGS.safety.locationSafety;
  return distanceView(
    {
      shareDistance: row.share_distance ?? DEFAULT_SETTINGS.privacy.shareDistance,
      shareOnlyWithMatches: row.share_only_with_matches ?? safety.shareOnlyWithMatches,
      hideExactLocation: row.hide_exact_location ?? safety.hideExactLocation,
    },
    row.matched === true,
  );
}

/** What every list of located users shows of each (the grid, nearby cruisers): card, age, distance, badge. */
export function listedUser(p: PresentedUser) {
  return { uid: p.uid, displayName: p.displayName, age: p.age, photoURL: p.photoURL, distance: p.distance, verified: p.verified };
}

/**
 * The short card most answers carry for another user: id, name, thumbnail, and the verified
 * badge where the answer's schema has it (the row then selects phone_verified_at).
 */
export function userCard(row: OtherUserRow): {
  uid: string;
  displayName: string | null;
  photoURL: string | null;
  verified: boolean;
} {
  const p = presentUser(row);
  return { uid: p.uid, displayName: p.displayName, photoURL: p.photoURL, verified: p.verified };
}
