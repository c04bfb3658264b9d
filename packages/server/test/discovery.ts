import { randomBytes } from 'node:crypto';
import {
  cellOf,
  DEFAULT_DATING_PROFILE,
  DEFAULT_MODE_VISIBILITY,
  DEFAULT_NOW_PROFILE,
  DEFAULT_PREFERENCES,
  DEFAULT_STATS,
  type LatLng,
  type ModeVisibility,
  type NowProfile,
  PLACE_METERS,
  type PlaceShift,
  type Preferences,
  placeCentre,
  snap,
} from '@fmk/core';
import type { Db } from '../src/db/index.ts';
import { upsertLocation } from '../src/modules/discovery/repo.ts';

/**
 * Grid fixtures: complete, located users written straight to the tables (as the seed does), so a
 * grid test can place dozens of people in milliseconds. Viewers still sign up through the API.
 * A placed man's place shift is, unless given, the one that centres his place on his cell
 * (`centredShift`): one of the shifts a man may draw, chosen so that grid tests about order,
 * paging and labels can reason in cells. Men located through the API draw theirs at random.
 */
export interface PlacedUser {
  id: string;
  at: LatLng;
  age?: number;
  name?: string;
  isActive?: boolean;
  onboardingComplete?: boolean;
  incognito?: boolean;
  showOnlineStatus?: boolean;
  isOnline?: boolean;
  modeVisibility?: Partial<ModeVisibility>;
  nowProfile?: Partial<NowProfile>;
  rightNowEnabled?: boolean;
  photoURL?: string | null;
  currentMode?: 'dating' | 'now';
  locationActive?: boolean;
  locationUpdated?: Date;
  /** His place shift (core PlaceShift); default: centred on his cell. */
  shift?: PlaceShift;
}

const PLACE_LAT_STEP = PLACE_METERS / 111_320;

/** The place shift whose square is centred on this cell centre: he is listed at (a hair from) his cell centre. */
export function centredShift(at: LatLng): PlaceShift {
  const c = snap(at);
  const frac = (x: number) => x - Math.floor(x);
  const lat = frac(c.lat / PLACE_LAT_STEP - 0.5);
  const lngStep = PLACE_LAT_STEP / Math.cos((c.lat * Math.PI) / 180);
  return { lat, lng: frac(c.lng / lngStep - 0.5) };
}

/** Where others' lists place a located user: his place, from his stored cell centre and shift. */
export async function placeOfUser(db: Db, userId: string): Promise<LatLng> {
  const l = await db
    .selectFrom('user_locations')
    .select(['lat', 'lng', 'shift_lat', 'shift_lng'])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return placeCentre({ lat: l.lat, lng: l.lng }, { lat: l.shift_lat, lng: l.shift_lng });
}

export async function placeUser(db: Db, u: PlacedUser, now: Date): Promise<string> {
  await db
    .insertInto('users')
    .values({
      id: u.id,
      email: `${u.id}-${randomBytes(3).toString('hex')}@example.com`,
      password_hash: null,
      google_sub: null,
      anonymous_id: null,
      display_name: u.name ?? u.id,
      photo_url: u.photoURL === undefined ? `/files/photos/${u.id}/a.webp` : u.photoURL,
      subscription_tier: 'free',
      is_active: u.isActive ?? true,
      onboarding_complete: u.onboardingComplete ?? true,
      age: u.age ?? 30,
      bio: 'Hello',
      interests: '[]',
      intentions: '[]',
      selected_features: '[]',
      tribes: '[]',
      current_mode: u.currentMode ?? 'dating',
      right_now_enabled: u.rightNowEnabled ?? false,
      is_online: u.isOnline ?? false,
      preferences: JSON.stringify(DEFAULT_PREFERENCES),
      stats: JSON.stringify(DEFAULT_STATS),
      dating_profile: JSON.stringify(DEFAULT_DATING_PROFILE),
      now_profile: JSON.stringify({ ...DEFAULT_NOW_PROFILE, ...u.nowProfile }),
      mode_visibility: JSON.stringify({ ...DEFAULT_MODE_VISIBILITY, ...u.modeVisibility }),
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db
    .insertInto('user_settings')
    .values({
      user_id: u.id,
      gender_preferences: '[]',
      relationship_status_preferences: '[]',
      incognito_mode: u.incognito ?? false,
      show_online_status: u.showOnlineStatus ?? true,
      location_sharing_consent: true,
      updated_at: now,
    })
    .execute();
  const p = snap(u.at);
  const c = cellOf(u.at);
  await upsertLocation(db, {
    userId: u.id,
    ...p,
    row: c.row,
    col: c.col,
    shift: u.shift ?? centredShift(u.at),
    mode: 'dating',
    at: u.locationUpdated ?? now,
    byArea: false,
  });
  if (u.locationActive === false)
    await db.updateTable('user_locations').set({ is_active: false }).where('user_id', '=', u.id).execute();
  return u.id;
}

/** A point `km` east of `from` (along the parallel). */
export function east(from: LatLng, km: number): LatLng {
  return { lat: from.lat, lng: from.lng + km / (111.32 * Math.cos((from.lat * Math.PI) / 180)) };
}

export async function setPreferences(db: Db, userId: string, p: Partial<Preferences>): Promise<void> {
  await db
    .updateTable('users')
    .set({ preferences: JSON.stringify({ ...DEFAULT_PREFERENCES, ...p }) })
    .where('id', '=', userId)
    .execute();
}

/**
 * Counts `targetId` as opened by the viewer today, as a first open would. For tests about
 * something else than the tier limit (which the grid tests prove through the API).
 */
export async function unlockProfile(db: Db, viewerId: string, targetId: string, now: Date): Promise<void> {
  await db
    .insertInto('grid_unlocks')
    .values({ viewer_id: viewerId, day: now.toISOString().slice(0, 10), target_id: targetId, position: 0, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The user id a bearer token speaks for (its `sub`), for helpers that only get headers. */
export function subjectOf(headers: Record<string, string>): string | null {
  const token = headers.authorization?.replace(/^Bearer /, '');
  const payload = token?.split('.')[1];
  if (!payload) return null;
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string }).sub ?? null;
}
