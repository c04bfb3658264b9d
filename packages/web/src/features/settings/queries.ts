import { type AppPreferences, DEFAULT_MODE_SETTINGS, GRID_REFRESH_DELAY_MS, type ModeSettings } from '@fmk/core';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';
import { clientCache } from '../../shared/clientCache.ts';
import { readAppPreferences, writeLocalModeSettings } from '../../shared/preferences.ts';
import { discoveryKeys } from '../../shared/queryKeys.ts';
import { changeStoredAppPreferences, storeAppPreferences } from '../../shared/usePreferences.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';

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

const SAVED_LOCALLY = 'Saved on this device only';
/** The server said no (a 4xx): the local copy must not pretend otherwise. */
const isRefusal = (e: unknown): e is ApiError => e instanceof ApiError && e.status < 500;

/**
 * App preferences (spec section 3): applied and stored locally at once, then synced to the user
 * record. A failed sync keeps the local value. A new appMode clears the client caches and
 * refreshes the grid 1.5 s later (spec section 4).
 */
export function useAppPreferencesMutation() {
  const { updateUser } = useAuth();
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (next: AppPreferences) => call('PATCH /me', { body: { appPreferences: next } }),
    onMutate: (next) => {
      const before = readAppPreferences().appMode;
      changeStoredAppPreferences(next);
      if (before !== next.appMode) resetCachesForAppMode(queryClient);
    },
    onSuccess: (me) => {
      updateUser(me);
      storeAppPreferences(me.appPreferences);
    },
    onError: (e) => {
      if (isRefusal(e)) toast.error(e.message);
      else toast.warning(SAVED_LOCALLY, "We couldn't reach the server. This change applies here until it syncs.");
    },
  });
}

/**
 * Mode settings (spec section 3 "Client app settings"): PATCH /me {modeSettings}. When the
 * server cannot be reached the settings fall back to local storage under appSettings
 * (spec section 8) and apply on this device.
 */
export function useModeSettingsMutation() {
  const { user, updateUser } = useAuth();
  const toast = useToast();
  return useMutation({
    mutationFn: (change: Partial<ModeSettings>) => call('PATCH /me', { body: { modeSettings: change } }),
    onSuccess: (me) => updateUser(me),
    onError: (e, change) => {
      if (isRefusal(e)) {
        toast.error(e.message);
        return;
      }
      if (!user) return;
      const merged: ModeSettings = { ...(user.modeSettings ?? DEFAULT_MODE_SETTINGS), ...change };
      writeLocalModeSettings(merged);
      updateUser({ ...user, modeSettings: merged });
      toast.warning(SAVED_LOCALLY, "We couldn't reach the server. Your mode settings apply here until they sync.");
    },
  });
}
