import { type AppPreferences, GRID_REFRESH_DELAY_MS, type ModeSettings } from '@fmk/core';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { clientCache } from '../../shared/clientCache.ts';
import { readAppPreferences } from '../../shared/preferences.ts';
import { discoveryKeys } from '../../shared/queryKeys.ts';
import { useSaveMe } from './store.ts';

let pendingGridRefresh: ReturnType<typeof setTimeout> | null = null;

/**
 * Changing appMode (spec section 4): clear every client cache — the signed-in user lives in the
 * auth provider, not in the query cache, so it survives — then refresh the grid after 1.5 s.
 */
function resetCachesForAppMode(queryClient: QueryClient): void {
  queryClient.clear();
  clientCache.clear();
  if (pendingGridRefresh) clearTimeout(pendingGridRefresh);
  pendingGridRefresh = setTimeout(() => {
    pendingGridRefresh = null;
    void queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
  }, GRID_REFRESH_DELAY_MS);
}

/**
 * App preferences (spec section 3): shown and stored locally at once, then saved to the user
 * record (useSaveMe: kept under appSettings and synced when the server cannot be reached). A
 * new appMode clears the client caches and refreshes the grid 1.5 s later (spec section 4).
 */
export function useSaveAppPreferences(): (next: AppPreferences) => void {
  const save = useSaveMe();
  const queryClient = useQueryClient();
  return useCallback(
    (next: AppPreferences) => {
      const before = readAppPreferences().appMode;
      // The new preferences are stored before the first await: the caches clear after them.
      const saving = save({ appPreferences: next });
      if (before !== next.appMode) resetCachesForAppMode(queryClient);
      void saving;
    },
    [save, queryClient],
  );
}

/** Mode settings (spec section 3 "Client app settings"): PATCH /me {modeSettings}, through useSaveMe. */
export function useSaveModeSettings(): (change: Partial<ModeSettings>) => void {
  const save = useSaveMe();
  return useCallback((change: Partial<ModeSettings>) => void save({ modeSettings: change }), [save]);
}

/** Units (metric or imperial): PATCH /me {preferences: {units}}, through useSaveMe. */
export function useSaveUnits(): (units: 'metric' | 'imperial') => void {
  const save = useSaveMe();
  return useCallback((units: 'metric' | 'imperial') => void save({ preferences: { units } }), [save]);
}
