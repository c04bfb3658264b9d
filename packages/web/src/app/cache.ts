import { GRID_REFRESH_DELAY_MS, TtlCache } from '@fmk/core';
import type { QueryClient } from '@tanstack/react-query';
import { discoveryKeys } from '../features/discovery/queries.ts';

/**
 * The client cache rule of spec section 9 (at most 50 entries, 5 minutes): user data read
 * outside the query cache (public profiles) lives here.
 */
export const clientCache = new TtlCache<unknown>(() => Date.now());

let pendingGridRefresh: ReturnType<typeof setTimeout> | null = null;

/**
 * Changing appMode (spec section 4): clear every client cache — the signed-in user lives in the
 * auth provider, not in the query cache, so it survives — then refresh the grid after 1.5 s.
 */
export function resetCachesForAppMode(queryClient: QueryClient): void {
  queryClient.clear();
  clientCache.clear();
  if (pendingGridRefresh) clearTimeout(pendingGridRefresh);
  pendingGridRefresh = setTimeout(() => {
    pendingGridRefresh = null;
    void queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
  }, GRID_REFRESH_DELAY_MS);
}
