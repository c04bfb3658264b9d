import type { AppMode, GridPage, GridQuery, ProfileMode } from '@fmk/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

/** The grid's filters as sent: basic ones from preferences, advanced ones (Premium) local. */
export type GridFilters = Omit<Partial<GridQuery>, 'cursor' | 'limit'>;

/**
 * Query keys of the grid. A change of appMode refreshes everything under `all` (spec section 4);
 * the filters are part of the key so a change of filters starts a fresh list.
 */
export const discoveryKeys = {
  all: ['discovery'] as const,
  grid: (appMode: AppMode, mode: ProfileMode, filters: GridFilters = {}) =>
    [...discoveryKeys.all, 'grid', appMode, mode, filters] as const,
};

/** One page of the grid: 60 cells fill several phone screens of three columns. */
export const GRID_PAGE_SIZE = 60;

/** The query string of GET /grid; unset and false filters are left out (false means "any"). */
export function gridSearch(filters: GridFilters, cursor: string | null, limit = GRID_PAGE_SIZE): string {
  const params = new URLSearchParams();
  if (cursor) params.set('cursor', cursor);
  params.set('limit', String(limit));
  for (const [k, v] of Object.entries(filters)) {
    if (v === undefined || v === null || v === false || v === '') continue;
    params.set(k, String(v));
  }
  return params.toString();
}

/**
 * The grid's first page, asked for as soon as the grid's code loads on a cold start (it loads
 * beside the session check), so the photos do not also wait for that check and the first
 * render (issue 8: the grid's LCP). The grid query takes it once, if its filters are the same.
 */
let early: { path: string; at: number; page: Promise<GridPage> } | null = null;
const EARLY_PAGE_MS = 10_000;

/** Cells on a phone's first screen, whose photos an early first page fetches at once. */
const FIRST_SCREEN_CELLS = 12;

export function prefetchFirstGridPage(filters: GridFilters, now = Date.now()): void {
  const path = `/grid?${gridSearch(filters, null)}`;
  const page = api<GridPage>(path);
  // The photos too, before the grid renders (they are immutable: the cells take them from cache).
  page.then(
    (p) => {
      for (const c of p.items.slice(0, FIRST_SCREEN_CELLS)) {
        if (!c.photoURL) continue;
        const img = new Image();
        img.fetchPriority = 'high';
        img.src = c.photoURL;
      }
    },
    // Unused or failed: the query asks again and reports its own error.
    () => {},
  );
  early = { path, at: now, page };
}

function takeEarlyPage(path: string): Promise<GridPage> | null {
  const e = early;
  early = null;
  return e && e.path === path && Date.now() - e.at < EARLY_PAGE_MS ? e.page : null;
}

/** GET /api/v1/grid, page by page (infinite scroll). */
export function useGridQuery(appMode: AppMode, mode: ProfileMode, filters: GridFilters) {
  return useInfiniteQuery({
    queryKey: discoveryKeys.grid(appMode, mode, filters),
    queryFn: ({ pageParam, signal }) => {
      const path = `/grid?${gridSearch(filters, pageParam)}`;
      return (pageParam === null ? takeEarlyPage(path) : null) ?? api<GridPage>(path, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Distances and presence move slowly; a minute avoids refetching every page on each visit.
    staleTime: 60_000,
  });
}
