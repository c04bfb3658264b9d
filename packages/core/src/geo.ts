/**
 * Location privacy (docs/decisions/0003). Published attacks on peer apps located users to within
 * 10–111 m through exact distances, rounded distances probed from spoofed positions, sort order and
 * distance filters. The defence: every position is snapped to a cell on the server before it is
 * stored or compared, and every distance, order and filter is computed from cell centres only.
 * Whatever an attacker does, what he observes is a function of the victim's cell, so he cannot
 * place the victim more precisely than one cell (CELL_METERS on a side).
 */
export const EARTH_RADIUS_KM = 6371;
/** Side of a privacy cell. At least 100 m is required; 500 m keeps a city block anonymous. */
export const CELL_METERS = 500;
const METERS_PER_DEG_LAT = 111_320;
const LAT_STEP = CELL_METERS / METERS_PER_DEG_LAT;
const MAX_LAT = 85;

export interface LatLng {
  lat: number;
  lng: number;
}

export interface Cell {
  /** Latitude band index. */
  row: number;
  /** Longitude index within the band. */
  col: number;
}

export function isValidLatLng(p: { lat: unknown; lng: unknown }): p is LatLng {
  return (
    typeof p.lat === 'number' &&
    typeof p.lng === 'number' &&
    Number.isFinite(p.lat) &&
    Number.isFinite(p.lng) &&
    p.lat >= -90 &&
    p.lat <= 90 &&
    p.lng >= -180 &&
    p.lng <= 180
  );
}

function lngStepForRow(row: number, latStep = LAT_STEP): number {
  const centreLat = Math.max(-MAX_LAT, Math.min(MAX_LAT, (row + 0.5) * latStep));
  return latStep / Math.cos((centreLat * Math.PI) / 180);
}

function cellAt(p: LatLng, latStep: number): Cell {
  const lat = Math.max(-MAX_LAT, Math.min(MAX_LAT, p.lat));
  // "+ 0" turns -0 into 0 so equal cells compare equal.
  const row = Math.floor(lat / latStep) + 0;
  const lng = ((((p.lng + 180) % 360) + 360) % 360) - 180;
  const col = Math.floor(lng / lngStepForRow(row, latStep)) + 0;
  return { row, col };
}

/** The cell a position falls in. Bands of equal latitude; within a band, cells ~CELL_METERS wide. */
export function cellOf(p: LatLng): Cell {
  return cellAt(p, LAT_STEP);
}

export function cellCentre(c: Cell): LatLng {
  return { lat: (c.row + 0.5) * LAT_STEP, lng: (c.col + 0.5) * lngStepForRow(c.row) };
}

/**
 * Side of the area a man is placed in for others when he hides his exact location
 * (locationSafety.hideExactLocation) or shares his distance only with matches: ten cells.
 */
export const AREA_METERS = 5000;
const AREA_LAT_STEP = AREA_METERS / METERS_PER_DEG_LAT;

/**
 * The centre of the AREA_METERS area a position falls in. Computed from his cell centre, so what
 * anyone observes through it (order, distance filter, label) is a function of the area alone.
 */
export function areaCentre(p: LatLng): LatLng {
  const c = cellAt(snap(p), AREA_LAT_STEP);
  return { lat: (c.row + 0.5) * AREA_LAT_STEP, lng: (c.col + 0.5) * lngStepForRow(c.row, AREA_LAT_STEP) };
}

/**
 * Side of the square a man is listed by for others (his place): two cells. A cell alone is not
 * enough: every distance, order and filter computed from it is a function of the cell, so an
 * attacker with enough vantage points learns the cell, and a cell centre is on average only
 * ~190 m from the man (docs/decisions/0016).
 */
export const PLACE_METERS = 2 * CELL_METERS;
const PLACE_LAT_STEP = PLACE_METERS / METERS_PER_DEG_LAT;

/**
 * A man's own offset of the lattice of his places: two numbers in [0, 1) drawn at random once,
 * kept with his location and never sent. Each man's squares are shifted differently, so where
 * his square's centre lies says nothing about where in the square he is.
 */
export interface PlaceShift {
  lat: number;
  lng: number;
}

/**
 * The point others' lists, labels, filters and pins place a man at: the centre of the square
 * (PLACE_METERS, his own shifted lattice) his cell centre falls in. A function of his cell and
 * his shift only, so repeated or finer questions give nothing new, and his cell (hence his
 * position) is anywhere in the 2 x 2 cells around it for whoever does not know the shift.
 */
export function placeCentre(centre: LatLng, shift: PlaceShift): LatLng {
  const c = snap(centre);
  const lat = Math.max(-MAX_LAT, Math.min(MAX_LAT, c.lat));
  const row = Math.floor(lat / PLACE_LAT_STEP - shift.lat);
  const placeLat = (row + shift.lat + 0.5) * PLACE_LAT_STEP;
  const lngStep = PLACE_LAT_STEP / Math.cos((Math.max(-MAX_LAT, Math.min(MAX_LAT, placeLat)) * Math.PI) / 180);
  const lng = ((((c.lng + 180) % 360) + 360) % 360) - 180;
  const col = Math.floor(lng / lngStep - shift.lng);
  const placeLng = (col + shift.lng + 0.5) * lngStep;
  return { lat: placeLat, lng: placeLng >= 180 ? placeLng - 360 : placeLng < -180 ? placeLng + 360 : placeLng };
}

/** The label of the distance from a viewer (his cell centre) to a man's place (placeCentre). */
export function placeDistanceLabel(viewer: LatLng, place: LatLng, units: 'imperial' | 'metric' = 'metric'): string {
  return distanceLabel(distanceKm(snap(viewer), place), units);
}

/** The only position the server keeps or compares: the centre of the position's cell. */
export function snap(p: LatLng): LatLng {
  return cellCentre(cellOf(p));
}

export function cellKey(c: Cell): string {
  return `${c.row}:${c.col}`;
}

/** Great-circle distance in km (haversine, earth radius 6371 km). */
export function distanceKm(a: LatLng, b: LatLng): number {
  const toRad = (d: number) => (d * Math.PI) / 180;
  const dLat = toRad(b.lat - a.lat);
  const dLng = toRad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Distance between two users as the product may use it: between their cell centres. */
export function snappedDistanceKm(a: LatLng, b: LatLng): number {
  return distanceKm(snap(a), snap(b));
}

/**
 * The label shown for a distance: '< 1 km', whole km below 10, steps of 5 km below 50, then
 * '50+ km'. Imperial users get miles on the same rule.
 */
export function distanceLabel(km: number, units: 'imperial' | 'metric' = 'metric'): string {
  const unit = units === 'imperial' ? 'mi' : 'km';
  const d = units === 'imperial' ? km / 1.609344 : km;
  if (d < 1) return `< 1 ${unit}`;
  if (d < 10) return `${Math.round(d)} ${unit}`;
  if (d < 50) return `${Math.round(d / 5) * 5} ${unit}`;
  return `50+ ${unit}`;
}

/** What a viewer at `viewer` learns about a user at `target`: computed from cells only. */
export function observedDistanceLabel(viewer: LatLng, target: LatLng, units: 'imperial' | 'metric' = 'metric'): string {
  return distanceLabel(snappedDistanceKm(viewer, target), units);
}

/**
 * The label of a distance to a man placed by his area: steps of 5 (km or miles) and nothing
 * finer, '< 5 km' below the first, '50+ km' from 50.
 */
export function areaDistanceLabel(km: number, units: 'imperial' | 'metric' = 'metric'): string {
  const unit = units === 'imperial' ? 'mi' : 'km';
  const d = units === 'imperial' ? km / 1.609344 : km;
  if (d < 5) return `< 5 ${unit}`;
  if (d < 50) return `${Math.floor(d / 5) * 5} ${unit}`;
  return `50+ ${unit}`;
}

/** What a viewer at `viewer` learns about a man placed by his area: a function of that area only. */
export function observedAreaDistanceLabel(viewer: LatLng, target: LatLng, units: 'imperial' | 'metric' = 'metric'): string {
  return areaDistanceLabel(distanceKm(snap(viewer), areaCentre(target)), units);
}

/** Location updates: at most one per this interval per user. */
export const LOCATION_UPDATE_MIN_INTERVAL_MS = 30_000;
/** Faster than an airliner between two updates is not a person moving: flag it. */
export const MAX_PLAUSIBLE_SPEED_KMH = 1000;

export function isImpossibleJump(prev: LatLng, prevAt: Date, next: LatLng, nextAt: Date): boolean {
  const hours = Math.max(0, nextAt.getTime() - prevAt.getTime()) / 3_600_000;
  const km = distanceKm(prev, next);
  if (km < 5) return false;
  return hours === 0 || km / hours > MAX_PLAUSIBLE_SPEED_KMH;
}
