import { distanceLabel, type GridCell, type LatLng, snappedDistanceKm } from '@fmk/core';
import { thumbnailURL } from '../../platform/media/files.ts';
import type { GridRow } from './repo.ts';

/**
 * The one place a grid row becomes what the client sees (STYLE.md #5 "present"): a distance
 * label between cell centres, never coordinates or a number; online status only when the owner
 * shows it; right-now text only when the owner has it on; the photo as a thumbnail.
 */
export function toGridCell(row: GridRow, viewer: LatLng, units: 'imperial' | 'metric', locked: boolean): GridCell {
  return {
    uid: row.id,
    displayName: row.display_name,
    age: row.age,
    // The cell's own thumbnail, not the full photo (up to 1600 px) for each of 60 cells.
    photoURL: thumbnailURL(row.photo_url),
    distance: distanceLabel(snappedDistanceKm(viewer, { lat: row.lat, lng: row.lng }), units),
    isOnline: (row.show_online_status ?? true) ? row.is_online : null,
    currentMode: row.current_mode,
    rightNow: row.right_now_enabled ? (row.right_now ?? null) : null,
    locked,
  };
}
