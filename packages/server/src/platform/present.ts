import {
  type ContentFilter,
  DEFAULT_SETTINGS,
  distanceView,
  type LatLng,
  observedAreaDistanceLabel,
  type PhotoHiddenReason,
  type PhotoVerdict,
  placeCentre,
  placeDistanceLabel,
  profilePhotoView,
} from '@fmk/core';
import { thumbnailURL } from './media/files.ts';

/**
 * Another user as a repo row carries him into a list (grid, nearby, matches, likes, conversations,
 * events, the blocked list). Name and photo always; each optional column adds its field.
 */
export interface OtherUserRow {
  id: string;
  display_name: string | null;
  photo_url: string | null;
  /** The model's verdict on that photo (users.photo_nudity, photo_sensitive), for the viewer's content filter. */
  photo_nudity: number | null;
  photo_sensitive: boolean;
  age?: number | null;
  /** His stored cell centre: the answer carries a distance label from his place, never a point of his. */
  lat?: number;
  lng?: number;
  /** His place shift (user_locations): with the cell centre, his place (core placeCentre). No shift: no label. */
  shift_lat?: number;
  shift_lng?: number;
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

/**
 * Who looks, as far as photos go: his content filter (settings safety.contentFiltering). Every
 * answer that shows another man's photo is presented for one viewer; an Actor is one.
 */
export interface Viewer {
  userSettings: { safety: { contentFiltering: ContentFilter } };
}

/** A photo as the viewer may get it: hidden (no address, and why) or blurred (core profilePhotoView). */
export interface PhotoFilterView {
  hidden?: PhotoHiddenReason;
  blurred?: true;
}

/**
 * The viewer's content filter applied to one photo of another man: the one place that decides
 * whether an answer carries its address. 'hide' (strict mode from core's STRICT_HOLD_AT, or
 * hideExplicitContent for a photo the model flagged) withholds it; 'blur' sends it marked.
 */
export function filterPhoto(viewer: Viewer, verdict: PhotoVerdict): PhotoFilterView {
  const view = profilePhotoView(viewer.userSettings.safety.contentFiltering, verdict);
  return view === 'hide' ? { hidden: 'explicit' } : view === 'blur' ? { blurred: true } : {};
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
  /** The photo's thumbnail (a list never needs the full photo, up to 1600 px); null when his filter hides it. */
  photoURL: string | null;
  /** Only when the viewer's content filter hides his photo: why (the web shows a placeholder). */
  photoHidden?: PhotoHiddenReason;
  /** Only when the viewer's content filter blurs his photo (tap to reveal). */
  photoBlurred?: true;
  /**
   * Bucketed, from the viewer's cell centre to his place ('< 1 km', '5 km', '50+ km'), or from his 5 km area in steps of
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
 * a distance label from the viewer's cell centre to his place, never coordinates or a number, only as much of it as
 * core's `distanceView` gives this viewer (none, his area, his cell); online status only when
 * he shows it (core's presence.see); Right Now only while he has it on; the photo as a thumbnail;
 * whether he is verified, never the number that made him so; his photo only as the viewer's content
 * filter lets him see it (`filterPhoto`: withheld with `photoHidden`, or marked `photoBlurred`).
 * Answers take the fields their schema has.
 */
export function presentUser(row: OtherUserRow, viewer: Viewer, onlooker?: Onlooker): PresentedUser {
  const shown = row.show_online_status !== undefined && row.show_online_status !== false;
  // Core's grid.seeDistance (distanceView) and profile.seeRightNow, for rows the SQL already admitted.
  const view = distanceViewOf(row);
  const photo = row.photo_url ? filterPhoto(viewer, { sensitive: row.photo_sensitive, nudity: row.photo_nudity }) : {};
  return {
    uid: row.id,
    displayName: row.display_name,
    age: row.age ?? null,
    photoURL: photo.hidden ? null : thumbnailURL(row.photo_url),
    ...(photo.hidden ? { photoHidden: photo.hidden } : {}),
    ...(photo.blurred ? { photoBlurred: true as const } : {}),
    distance: onlooker && view !== 'none' ? distanceLabelOf(row, view, onlooker) : null,
    isOnline: shown ? (row.is_online ?? null) : null,
    rightNow: row.right_now_enabled && !row.cruising_private ? (row.right_now ?? null) : null,
    verified: row.phone_verified_at != null,
  };
}

/**
 * The label of his distance for an onlooker: from his 5 km area in steps of 5 when only that may be
 * learnt, else from his place (the 1 km square of his own lattice his cell is in), never from his cell.
 */
function distanceLabelOf(row: OtherUserRow, view: 'area' | 'cell', onlooker: Onlooker): string | null {
  if (row.lat === undefined || row.lng === undefined) return null;
  const cell = { lat: row.lat, lng: row.lng };
  if (view === 'area') return observedAreaDistanceLabel(onlooker.centre, cell, onlooker.units);
  const place = placeOf(row);
  return place ? placeDistanceLabel(onlooker.centre, place, onlooker.units) : null;
}

/** His place (core placeCentre) from a row with his cell centre and shift; null without them. */
export function placeOf(row: OtherUserRow): LatLng | null {
  if (row.lat === undefined || row.lng === undefined || row.shift_lat == null || row.shift_lng == null) return null;
  return placeCentre({ lat: row.lat, lng: row.lng }, { lat: Number(row.shift_lat), lng: Number(row.shift_lng) });
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
  return {
    uid: p.uid,
    displayName: p.displayName,
    age: p.age,
    ...cardPhoto(p),
    distance: p.distance,
    verified: p.verified,
  };
}

/** The photo fields of a card: the address and, only when they apply, why it is hidden or blurred. */
export function cardPhoto(p: PresentedUser): Pick<PresentedUser, 'photoURL' | 'photoHidden' | 'photoBlurred'> {
  return {
    photoURL: p.photoURL,
    ...(p.photoHidden ? { photoHidden: p.photoHidden } : {}),
    ...(p.photoBlurred ? { photoBlurred: p.photoBlurred } : {}),
  };
}

/**
 * The short card most answers carry for another user, as `viewer` may see him: id, name, thumbnail
 * (with its content-filter flags), and the verified badge where the answer's schema has it (the
 * row then selects phone_verified_at).
 */
export function userCard(
  row: OtherUserRow,
  viewer: Viewer,
): {
  uid: string;
  displayName: string | null;
  photoURL: string | null;
  photoHidden?: PhotoHiddenReason;
  photoBlurred?: true;
  verified: boolean;
} {
  const p = presentUser(row, viewer);
  return { uid: p.uid, displayName: p.displayName, ...cardPhoto(p), verified: p.verified };
}

/** The users columns a row about another man needs for his photo (the row's `photo_*` fields). */
export const photoColumns = ['photo_url', 'photo_nudity', 'photo_sensitive'] as const;
