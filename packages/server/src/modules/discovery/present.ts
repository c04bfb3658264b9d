import type { GridCell, LatLng } from '@fmk/core';
import { listedUser, presentUser, type Viewer } from '../../platform/present.ts';
import type { GridRow } from './repo.ts';

/**
 * A grid row as the client sees it: the privacy step is platform/present.ts, shared with every list
 * (`who`: the viewer's content filter, for the photo; `viewer`: his cell centre, for the distance).
 */
export function toGridCell(row: GridRow, who: Viewer, viewer: LatLng, units: 'imperial' | 'metric', locked: boolean): GridCell {
  const p = presentUser(row, who, { centre: viewer, units });
  return {
    ...listedUser(p),
    isOnline: p.isOnline,
    currentMode: row.current_mode,
    rightNow: p.rightNow,
    locked,
  };
}
