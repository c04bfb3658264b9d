import { createHash, randomInt } from 'node:crypto';
import { areaCentre, EARTH_RADIUS_KM, type LatLng, type PlaceShift, placeCentre } from '@fmk/core';

/**
 * The `geo` points of `user_locations`, shared by the grid (discovery) and nearby cruisers (cruise).
 *
 * `geo` is a 4-D cube point: the cell centre on a sphere of core's radius (x, y, z in metres)
 * and a tie coordinate w in [0, TIE_SPREAD_M) fixed per user. A viewer searches from his own
 * centre with a w of his own for the day, so users at one distance (one cell) come in order of
 * |w - w_viewer|: a shuffle that differs per viewer and per day and is stable within it, that
 * says nothing about where anyone is, and that a GiST KNN scan (`<->`) yields directly.
 * TIE_SPREAD_M is small enough to change distances by at most a millimetre beyond the own cell.
 */
/** Core's sphere in metres: the scale of the x, y, z of every `geo` point. */
export const EARTH_M = EARTH_RADIUS_KM * 1000;
const TIE_SPREAD_M = 1;

/** A number in [0, 1) from a string, stable across runs and databases. */
function unitHash(s: string): number {
  return createHash('sha256').update(s).digest().readUIntBE(0, 6) / 2 ** 48;
}

/** The cube literal of a cell centre with a tie coordinate (computed here, never in SQL, so both sides agree). */
export function geoPoint(p: LatLng, tie: number): string {
  const lat = (p.lat * Math.PI) / 180;
  const lng = (p.lng * Math.PI) / 180;
  const x = EARTH_M * Math.cos(lat) * Math.cos(lng);
  const y = EARTH_M * Math.cos(lat) * Math.sin(lng);
  const z = EARTH_M * Math.sin(lat);
  return `(${x}, ${y}, ${z}, ${tie})`;
}

/** A stored user's point: his cell centre and his fixed tie coordinate. */
export function userGeo(userId: string, centre: LatLng): string {
  return geoPoint(centre, unitHash(`user:${userId}`) * TIE_SPREAD_M);
}

/**
 * The point others' lists order and filter him by: his place (core placeCentre: the centre of the
 * 1 km square of his own shifted lattice his cell falls in), or his 5 km area's centre when core's
 * `placedByArea` says so (locationSafety), so that no order or distance filter tells more.
 */
export function listedGeo(userId: string, centre: LatLng, shift: PlaceShift, byArea: boolean): string {
  return userGeo(userId, byArea ? areaCentre(centre) : placeCentre(centre, shift));
}

/** A new man's place shift: two numbers in [0, 1) from the system's secure random source, drawn once. */
export function newPlaceShift(): PlaceShift {
  const unit = () => randomInt(0, 2 ** 47) / 2 ** 47;
  return { lat: unit(), lng: unit() };
}

/** The shift of a stored location row (user_locations.shift_lat, shift_lng). */
export function shiftOf(row: { shift_lat: number; shift_lng: number }): PlaceShift {
  return { lat: Number(row.shift_lat), lng: Number(row.shift_lng) };
}

/** A viewer's search point for the day: his cell centre and the day's tie pivot. */
export function viewerGeo(viewerId: string, day: string, centre: LatLng): string {
  return geoPoint(centre, unitHash(`viewer:${viewerId}:${day}`) * TIE_SPREAD_M);
}

/**
 * The straight-line (chord) distance in `geo` space for a great-circle distance on core's
 * sphere, so that "within maxDistance" means what core's distanceKm means.
 */
export function chordForKm(km: number): number {
  return 2 * EARTH_M * Math.sin(km / EARTH_RADIUS_KM / 2);
}
