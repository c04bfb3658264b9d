import type { Db } from '../../db/index.ts';
import { viewerGeo } from '../../platform/geo.ts';
import { coords, cubeDistance } from './candidates.ts';
import type { GridMemory, HeldViewer } from './memory.ts';
import type { GivenCandidates } from './repo/candidates.ts';
import type { HeldProfile } from './repo/memory.ts';
import type { GridFilters, GridRow, GridViewer } from './repo.ts';

/**
 * The grid's rules over what memory.ts holds: repo.ts `visibleInGrid`, `openToViewer` and the
 * `matched` flag of `visibleRows`, condition for condition, with SQL's nulls (a missing settings
 * row reads as the coalesce defaults there, and reaches the card as nulls). The property test
 * (candidates.test.ts) holds every page to the statement's.
 */

/** `(x)::int` of a height as stored; null where the cast would not give a whole number. */
function heightOf(text: string | null): number | null {
  return text !== null && /^\s*[+-]?\d+\s*$/.test(text) ? Number.parseInt(text, 10) : null;
}

/** Whether he may appear in this viewer's grid (repo.ts visibleInGrid, his distance already checked). */
export function visibleHeld(p: HeldProfile, v: GridViewer, f: GridFilters, rel: HeldViewer): boolean {
  if (p.shift_lat === null || p.shift_lng === null) return false;
  if (!p.is_active || !p.onboarding_complete) return false;
  if (p.incognito_mode ?? false) return false;
  if (!(p.share_location_enabled ?? true)) return false;
  if ((p.profile_visibility ?? 'public') !== 'public') return false;
  if (p.age < f.ageMin || p.age > f.ageMax) return false;
  if (!(v.mode === 'dating' ? p.in_dating : p.in_now)) return false;
  if (rel.blocked.has(p.id)) return false;
  if (f.onlineOnly && !(p.is_online && (p.show_online_status ?? true))) return false;
  if (f.withPhotos && p.photo_url === null) return false;
  if (f.position && p.position !== f.position) return false;
  if (f.tribe && !(Array.isArray(p.tribes) && p.tribes.includes(f.tribe))) return false;
  if (f.heightMin !== undefined || f.heightMax !== undefined) {
    const h = heightOf(p.height);
    if (h === null || (f.heightMin !== undefined && h < f.heightMin) || (f.heightMax !== undefined && h > f.heightMax))
      return false;
  }
  return true;
}

/** His row as the grid's statement gives it (repo.ts visibleRows), at the candidate's place and distance. */
function heldRow(p: HeldProfile, c: { lat: number; lng: number; d: number }, rel: HeldViewer): GridRow {
  const matched = rel.matched.has(p.id);
  return {
    id: p.id,
    lat: c.lat,
    lng: c.lng,
    d: c.d,
    display_name: p.display_name,
    age: p.age,
    photo_url: p.photo_url,
    photo_nudity: p.photo_nudity,
    photo_sensitive: p.photo_sensitive,
    phone_verified_at: p.phone_verified_at,
    shift_lat: p.shift_lat!,
    shift_lng: p.shift_lng!,
    is_online: p.is_online,
    current_mode: p.current_mode,
    right_now_enabled: p.right_now_enabled,
    right_now: p.right_now,
    show_online_status: p.show_online_status,
    share_distance: p.share_distance,
    share_only_with_matches: p.share_only_with_matches,
    hide_exact_location: p.hide_exact_location,
    cruising_private: p.cruising_private,
    open: rel.opened.has(p.id) || matched || rel.talked.has(p.id) || rel.liked.has(p.id),
    matched: (p.share_only_with_matches ?? false) && matched,
  };
}

/** Among the candidates (in the grid's order), the first n the viewer may see: repo/candidates.ts givenPageQuery. */
export async function heldPage(
  memory: GridMemory,
  db: Db,
  v: GridViewer,
  f: GridFilters,
  rel: HeldViewer,
  c: GivenCandidates,
  n: number,
): Promise<GridRow[]> {
  const profiles = await memory.profilesOf(db, c.ids);
  const rows: GridRow[] = [];
  for (let i = 0; i < c.ids.length && rows.length < n; i++) {
    const p = profiles.get(c.ids[i]!);
    if (p && visibleHeld(p, v, f, rel)) rows.push(heldRow(p, { lat: c.lats[i]!, lng: c.lngs[i]!, d: c.ds[i]! }, rel));
  }
  return rows;
}

/** The boosted men who head the first page (repo/candidates.ts boostedPage), from the held boosts. */
export async function heldBoostedPage(
  memory: GridMemory,
  db: Db,
  v: GridViewer,
  f: GridFilters,
  rel: HeldViewer,
  now: Date,
  n: number,
): Promise<GridRow[]> {
  const freshSince = f.freshSince.getTime();
  const [vx = 0, vy = 0, vz = 0, vw = 0] = coords(viewerGeo(v.id, v.seedDay, v));
  const near = [];
  for (const b of await memory.boostsAt(db, now)) {
    if (!b.active || b.updated < freshSince || b.user_id === v.id) continue;
    const [x, y, z, w] = b.xyzw;
    const d = cubeDistance(x, y, z, w, vx, vy, vz, vw);
    if (d <= f.maxChord) near.push({ id: b.user_id, lat: b.lat, lng: b.lng, d });
  }
  if (near.length === 0) return [];
  near.sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return heldPage(
    memory,
    db,
    v,
    f,
    rel,
    { ids: near.map((r) => r.id), lats: near.map((r) => r.lat), lngs: near.map((r) => r.lng), ds: near.map((r) => r.d) },
    n,
  );
}
