import type { AppMode, ProfileMode } from '@fmk/core';

/**
 * Query keys of the grid. The grid has no data yet (it is an empty state), but a change of
 * appMode already refreshes everything under `all` (spec section 4).
 */
export const discoveryKeys = {
  all: ['discovery'] as const,
  grid: (appMode: AppMode, mode: ProfileMode) => [...discoveryKeys.all, 'grid', appMode, mode] as const,
};
