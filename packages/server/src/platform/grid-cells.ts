import { areaCentre, type LatLng, placeCentre } from '@fmk/core';
import type { Bus, LiveEvent } from './bus.ts';

/**
 * The grid's candidate lists (modules/discovery/candidates.ts) are kept per cell on every
 * instance. A write that moves, adds or removes a point lists order users by
 * (`user_locations.geo`) announces the points it touched on this bus topic, after its commit, so
 * that every instance drops the lists those points could change. The topic is a bus address no
 * user id takes (ids are uuids); nothing is delivered to a client.
 */
export const GRID_CELLS_TOPIC = 'grid-cells';
export const GRID_CELLS_EVENT = 'grid-cells';

export interface GridCellsEvent extends LiveEvent {
  type: typeof GRID_CELLS_EVENT;
  /** Every point a list may have held him at or may now hold him at: place and area centres. */
  points: LatLng[];
}

/** A stored location as the lists place it: his cell centre and his place shift (user_locations). */
export interface ListedLocation {
  lat: number;
  lng: number;
  shift_lat: number;
  shift_lng: number;
}

/**
 * The points a location can be listed at: his place (core placeCentre), or the 5 km area's centre
 * when his location safety places him by area (platform/geo listedGeo). Both, whichever applies:
 * the setting may have changed in between, and an extra point only drops a list too many.
 */
export function listedPoints(l: ListedLocation): LatLng[] {
  const centre = { lat: l.lat, lng: l.lng };
  return [placeCentre(centre, { lat: Number(l.shift_lat), lng: Number(l.shift_lng) }), areaCentre(centre)];
}

/** Announces, after the commit, that the listed location of someone at these locations changed. */
export async function announceLocationChange(
  bus: Bus | undefined,
  locations: ReadonlyArray<ListedLocation | null | undefined>,
): Promise<void> {
  const points = locations.flatMap((l) => (l ? listedPoints(l) : []));
  if (!bus || points.length === 0) return;
  const event: GridCellsEvent = { type: GRID_CELLS_EVENT, points };
  await bus.publish([GRID_CELLS_TOPIC], event);
}

export function isGridCellsEvent(e: { type: string }): e is GridCellsEvent {
  return e.type === GRID_CELLS_EVENT && Array.isArray((e as { points?: unknown }).points);
}
