import type { AppMode, GridPage, ProfileMode } from '@fmk/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { call, pathOf, searchOf } from '../../api/call.ts';
import { dropFirstScreen } from '../../shared/firstScreen.ts';
import { discoveryKeys, type GridFilters } from '../../shared/queryKeys.ts';

/** One page of the grid: 60 cells fill several phone screens of three columns. */
export const GRID_PAGE_SIZE = 60;

/** The query of GET /grid; the API client leaves unset and false filters out (false means "any"). */
const gridQuery = (filters: GridFilters, cursor: string | null, limit = GRID_PAGE_SIZE) => ({
  cursor: cursor ?? undefined,
  limit,
  ...filters,
});

/** The query string of GET /grid, which early.ts builds the same way. */
export function gridSearch(filters: GridFilters, cursor: string | null, limit = GRID_PAGE_SIZE): string {
  return searchOf(gridQuery(filters, cursor, limit));
}

/** How long an early first page (early.ts) stays good for the grid to take. */
const EARLY_PAGE_MS = 10_000;

/**
 * The first page early.ts asked for before the app started, once, if it is the one wanted now.
 * If not, the first screen it painted from that page is not this grid's: it goes.
 */
function takeEarlyPage(path: string): Promise<GridPage | null> | null {
  const e = typeof window === 'undefined' ? undefined : window.__fmkFirstGridPage;
  if (!e) return null;
  window.__fmkFirstGridPage = undefined;
  if (e.path === path && Date.now() - e.at < EARLY_PAGE_MS) return e.page;
  dropFirstScreen();
  return null;
}

/** GET /api/v1/grid, page by page (infinite scroll). */
export function useGridQuery(appMode: AppMode, mode: ProfileMode, filters: GridFilters) {
  return useInfiniteQuery({
    queryKey: discoveryKeys.grid(appMode, mode, filters),
    queryFn: async ({ pageParam, signal }) => {
      const query = gridQuery(filters, pageParam);
      const early = pageParam === null ? await takeEarlyPage(pathOf('GET /grid', { query })) : null;
      return early ?? call('GET /grid', { query, signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Distances and presence move slowly; a minute avoids refetching every page on each visit.
    staleTime: 60_000,
  });
}
