import type { GridCell, LatLng } from '@fmk/core';
import { listedUser, presentUser } from '../../platform/present.ts';
import type { GridRow } from './repo.ts';

/** A grid row as the client sees it: the privacy step is platform/present.ts, shared with every list. */
export function toGridCell(row: GridRow, viewer: LatLng, units: 'imperial' | 'metric', locked: boolean): GridCell {
  const p = presentUser(row, { centre: viewer, units });
  return {
    ...listedUser(p),
    isOnline: p.isOnline,
    currentMode: row.current_mode,
    rightNow: p.rightNow,
    locked,
  };
}
