import {
  CLICKABLE_UPSELL,
  CLICKABLE_UPSELL_PLATINUM,
  effectiveTier,
  type GridCell,
  type GridPage,
  UNLIMITED,
  usesAdvancedFilters,
} from '@fmk/core';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { waitingForNetwork } from '../../shared/online.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ErrorState, LoadError } from '../../ui/ErrorState.tsx';
import { GridIcon, HeartIcon, MapPinIcon, ShieldIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { ProfileCell, ProfileCellSkeleton } from '../../ui/ProfileCell.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { UpgradeSheet } from '../../ui/UpgradeSheet.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useKilled } from '../game/killed.ts';
import { useLikesQuery } from '../game/queries.ts';
import { useUpdateMeMutation } from '../profiles/queries.ts';
import { FiltersSheet, type FiltersValue } from './FiltersSheet.tsx';
import { activeAdvancedCount, basicFilters, useAdvancedFilters } from './filters.ts';
import { LOCATION_MESSAGES, useLocationRefresh, useShareLocation } from './location.ts';
import { useGridQuery } from './queries.ts';

export const GRID_COLUMNS = 3;
const GAP = 6;
const PADDING = 8;
/** Cells are a little taller than wide: a face and a caption both fit. */
const CELL_RATIO = 1.25;
/** Rows kept rendered beyond the screen: enough for a fling, few enough to stay light. */
const OVERSCAN_ROWS = 4;
/** Ask for the next page this many rows before the end. */
const PREFETCH_ROWS = 6;

/** Rows whose photos load at once, with high priority: the first screen of a phone (LCP). */
const EAGER_ROWS = 4;

/** Where the grid was scrolled when the user opened a profile, to come back to the same place. */
let savedScroll = 0;

/** /grid — nearby profiles, nearest first, in a virtualised three-column grid. */
export function GridScreen() {
  const { user } = useAuth();
  const [prefs] = useAppPreferences();
  const [advanced, setAdvanced] = useAdvancedFilters();
  const toast = useToast();
  const updateMe = useUpdateMeMutation();
  const tier = user ? effectiveTier(user) : 'free';
  const premium = tier !== 'free';
  const preferences = user?.preferences;
  const filters = useMemo(() => ({ ...(preferences ? basicFilters(preferences) : {}), ...advanced }), [preferences, advanced]);
  const query = useGridQuery(prefs.appMode, user?.currentMode ?? 'dating', filters);
  const hasLocation = query.data?.pages[0]?.hasLocation;
  useLocationRefresh(hasLocation);

  const [filtersOpen, setFiltersOpen] = useState(false);
  // The filters form is built on first use, not with the first screen of cells (issue 8: LCP).
  const [filtersUsed, setFiltersUsed] = useState(false);
  const openFilters = useCallback(() => {
    setFiltersUsed(true);
    setFiltersOpen(true);
  }, []);
  const [upsell, setUpsell] = useState<{ title: string; message: string } | null>(null);
  const onLocked = useCallback(
    () =>
      setUpsell({
        title: 'Unlock more profiles',
        message: tier === 'premium' ? CLICKABLE_UPSELL_PLATINUM : CLICKABLE_UPSELL,
      }),
    [tier],
  );
  const filtersValue = useMemo<FiltersValue>(
    () => ({
      preferences: {
        ageRange: preferences?.ageRange ?? [18, 50],
        maxDistance: preferences?.maxDistance ?? 50,
        showMe: preferences?.showMe ?? 'everyone',
      },
      advanced,
    }),
    [preferences, advanced],
  );
  const filterCount = activeAdvancedCount(advanced);

  const apply = (v: FiltersValue) => {
    if (!premium && usesAdvancedFilters(v.advanced)) {
      setUpsell({ title: 'Premium filter', message: 'Advanced filters are available with Premium membership...' });
      return;
    }
    setAdvanced(v.advanced);
    const p = filtersValue.preferences;
    const changed =
      p.ageRange[0] !== v.preferences.ageRange[0] ||
      p.ageRange[1] !== v.preferences.ageRange[1] ||
      p.maxDistance !== v.preferences.maxDistance ||
      p.showMe !== v.preferences.showMe;
    if (!changed) {
      setFiltersOpen(false);
      return;
    }
    updateMe.mutate(
      { preferences: v.preferences },
      {
        onSuccess: () => setFiltersOpen(false),
        onError: () => toast.error('Your filters were not saved', 'Please try again.'),
      },
    );
  };

  return (
    <Page
      title="Nearby"
      actions={
        <div className="flex items-center gap-2">
          <LikesLink />
          <button
            type="button"
            onClick={openFilters}
            className="relative inline-flex min-h-10 items-center gap-1.5 rounded-full border border-line bg-white px-3.5 text-sm font-semibold text-ink hover:bg-canvas"
          >
            <FilterIcon />
            Filters
            {filterCount ? (
              <span className="rounded-full bg-primary-strong px-1.5 text-xs font-bold text-white">{filterCount}</span>
            ) : null}
          </button>
        </div>
      }
    >
      <GridBody query={query} onLocked={onLocked} onClearAdvanced={() => setAdvanced({})} onOpenFilters={openFilters} />
      {filtersUsed ? (
        <FiltersSheet
          open={filtersOpen}
          onClose={() => setFiltersOpen(false)}
          value={filtersValue}
          units={preferences?.units ?? 'imperial'}
          premium={premium}
          saving={updateMe.isPending}
          onApply={apply}
          onUpsell={(message) => setUpsell({ title: 'Premium filter', message })}
        />
      ) : null}
      <UpgradeSheet
        open={upsell !== null}
        onClose={() => setUpsell(null)}
        title={upsell?.title ?? ''}
        message={upsell?.message ?? ''}
      />
    </Page>
  );
}

function LikesLink() {
  const likes = useLikesQuery();
  const count = likes.data?.count ?? 0;
  const unseen = likes.data?.unseen ?? 0;
  return (
    <Link
      to="/likes"
      aria-label={count ? `Likes you: ${count}${unseen ? `, ${unseen} new` : ''}` : 'Likes you'}
      className="relative inline-flex min-h-10 items-center gap-1.5 rounded-full border border-line bg-white px-3 text-sm font-semibold text-ink hover:bg-canvas"
    >
      <HeartIcon width={18} height={18} className="text-primary-strong" fill={unseen ? 'currentColor' : 'none'} />
      {count ? <span>{count > 99 ? '99+' : count}</span> : <span>Likes</span>}
    </Link>
  );
}

function FilterIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      aria-hidden="true"
    >
      <path d="M4 6h16M7 12h10M10 18h4" />
    </svg>
  );
}

type GridQueryResult = ReturnType<typeof useGridQuery>;

function GridBody({
  query,
  onLocked,
  onClearAdvanced,
  onOpenFilters,
}: {
  query: GridQueryResult;
  onLocked: (c: GridCell) => void;
  onClearAdvanced: () => void;
  onOpenFilters: () => void;
}) {
  const killed = useKilled();
  // A page of cells renders in a background, time-sliced pass (the skeleton or the cells so far
  // stay meanwhile): a page arriving never holds the main thread in one long task (issue 8).
  const pages = useDeferredValue(query.data?.pages);
  const items = useMemo(() => {
    const seen = new Set<string>();
    const out: GridCell[] = [];
    for (const p of pages ?? [])
      for (const c of p.items) {
        // A cursor page may repeat a cell when someone moved between pages: keep the first.
        if (killed.has(c.uid) || seen.has(c.uid)) continue;
        seen.add(c.uid);
        out.push(c);
      }
    return out;
  }, [pages, killed]);

  if (waitingForNetwork(query)) return <OfflineState body="The grid loads when you're back online." />;
  if (query.isPending || (query.isSuccess && pages === undefined)) return <GridSkeleton />;
  // A refetch lost on the way keeps the grid it had (the offline copy, a server restarting).
  const keepGrid = query.data !== undefined && !(query.error instanceof ApiError && query.error.status < 500);
  if (query.isError && !keepGrid) {
    const e = query.error;
    if (e instanceof ApiError && e.code === 'limit_reached') {
      return (
        <ErrorState
          title="That filter is for Premium"
          body={e.message}
          actions={
            <>
              <ButtonLink to="/settings/premium">See Premium</ButtonLink>
              <Button variant="secondary" onClick={onClearAdvanced}>
                Clear advanced filters
              </Button>
            </>
          }
        />
      );
    }
    return <LoadError title="We couldn't load the grid" onRetry={() => query.refetch()} retrying={query.isFetching} />;
  }
  const first: GridPage | undefined = pages?.[0];
  if (first && !first.hasLocation) return <LocationConsent />;
  if (items.length === 0) {
    return (
      <EmptyState
        icon={<GridIcon />}
        title="No one nearby yet"
        body="No one matches your filters right now. Widen them, or check back soon as men join near you."
        action={
          <Button variant="secondary" onClick={onOpenFilters}>
            Change filters
          </Button>
        }
      />
    );
  }
  return (
    <>
      {first ? <OpensLeft page={first} /> : null}
      <VirtualGrid
        items={items}
        hasNextPage={query.hasNextPage}
        // Until the background pass shows the last page, it counts as loading (no early next fetch).
        isFetchingNextPage={query.isFetchingNextPage || pages !== query.data?.pages}
        fetchNextPage={query.fetchNextPage}
        nextPageFailed={query.isFetchNextPageError}
        onLocked={onLocked}
      />
    </>
  );
}

/**
 * Today's profile opens for a limited tier (spec section 6: 5 / 25): any profiles the viewer
 * chooses, counted when first opened. Matches and men who liked him never cost one.
 */
function OpensLeft({ page }: { page: GridPage }) {
  if (page.clickableLimit === UNLIMITED || page.opensLeft === UNLIMITED) return null;
  const left = page.opensLeft;
  return (
    <p className="mx-2 mb-2 flex min-h-9 items-center justify-between gap-2 rounded-xl bg-primary-soft px-3 text-sm text-ink">
      <span>
        <strong className="font-bold">{left}</strong> of {page.clickableLimit} profile opens left today
      </span>
      {left === 0 ? (
        <Link to="/settings/premium" className="font-semibold text-primary-strong underline underline-offset-2">
          Get more
        </Link>
      ) : null}
    </p>
  );
}

/** The width of the grid's box, measured (phones differ); 390 px until the first measure. */
function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width || 390;
}

function cellSizeFor(width: number) {
  const w = (width - PADDING * 2 - GAP * (GRID_COLUMNS - 1)) / GRID_COLUMNS;
  return { width: w, height: Math.round(w * CELL_RATIO) };
}

function VirtualGrid({
  items,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  nextPageFailed,
  onLocked,
}: {
  items: GridCell[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: (options?: { cancelRefetch?: boolean }) => Promise<unknown>;
  nextPageFailed: boolean;
  onLocked: (c: GridCell) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const width = useWidth(ref);
  const size = useMemo(() => cellSizeFor(width), [width]);
  const rowHeight = size.height + GAP;
  const rows = Math.ceil(items.length / GRID_COLUMNS);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    setMargin(ref.current ? ref.current.getBoundingClientRect().top + window.scrollY : 0);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    scrollMargin: margin,
    initialOffset: () => savedScroll,
  });
  // Row height follows the width (rotation, a wider window).
  // biome-ignore lint/correctness/useExhaustiveDependencies: rowHeight is the trigger, read through estimateSize
  useEffect(() => {
    virtualizer.measure();
  }, [rowHeight, virtualizer]);

  // Back from a profile: the same place in the list.
  useLayoutEffect(() => {
    if (savedScroll > 0) window.scrollTo(0, savedScroll);
    return () => {
      savedScroll = window.scrollY;
    };
  }, []);

  const virtualRows = virtualizer.getVirtualItems();
  const lastRow = virtualRows[virtualRows.length - 1]?.index ?? -1;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !nextPageFailed && lastRow >= rows - PREFETCH_ROWS)
      // A re-render before isFetchingNextPage turns true must not cancel and repeat the request.
      void fetchNextPage({ cancelRefetch: false });
  }, [lastRow, rows, hasNextPage, isFetchingNextPage, nextPageFailed, fetchNextPage]);

  return (
    <div ref={ref} className="pb-4">
      <ul
        aria-label="Men nearby"
        className="relative m-0 list-none p-0"
        style={{ height: virtualizer.getTotalSize(), contain: 'strict' }}
      >
        {virtualRows.map((row) => {
          const start = row.index * GRID_COLUMNS;
          return (
            <li
              key={row.key}
              className="absolute left-0 flex w-full"
              style={{
                top: 0,
                height: rowHeight,
                transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
                gap: GAP,
                paddingLeft: PADDING,
                paddingRight: PADDING,
              }}
            >
              {items.slice(start, start + GRID_COLUMNS).map((c) => (
                <ProfileCell key={c.uid} cell={c} size={size} onLocked={onLocked} eager={row.index < EAGER_ROWS} />
              ))}
            </li>
          );
        })}
      </ul>
      {isFetchingNextPage ? (
        <div className="flex justify-center py-4">
          <Spinner label="Loading more" />
        </div>
      ) : nextPageFailed ? (
        <div className="flex flex-col items-center gap-2 py-4">
          <p className="text-sm text-muted">More profiles didn't load.</p>
          <Button variant="secondary" onClick={() => void fetchNextPage()}>
            Try again
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function GridSkeleton() {
  const ref = useRef<HTMLDivElement>(null);
  const size = cellSizeFor(useWidth(ref));
  return (
    <div ref={ref} aria-busy="true" className="flex flex-wrap" style={{ gap: GAP, padding: `0 ${PADDING}px` }}>
      <span role="status" className="sr-only">
        Loading men nearby
      </span>
      {Array.from({ length: 12 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
        <ProfileCellSkeleton key={i} size={size} />
      ))}
    </div>
  );
}

function LocationConsent() {
  const { status, problem, share } = useShareLocation();
  return (
    <section
      aria-labelledby="consent-title"
      className="mx-4 mt-4 flex flex-col items-center gap-4 rounded-3xl border border-line bg-white px-5 py-8 text-center"
    >
      <span className="flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary-strong">
        <MapPinIcon width={32} height={32} />
      </span>
      <h2 id="consent-title" className="text-xl font-bold text-ink">
        See who's nearby
      </h2>
      <p className="max-w-xs text-base text-muted">
        Share your approximate location to see men nearby. Others only ever see a rounded distance.
      </p>
      {problem ? (
        <p role="alert" className="max-w-xs text-sm font-medium text-primary-strong">
          {LOCATION_MESSAGES[problem]}
        </p>
      ) : null}
      <Button block onClick={() => void share()} loading={status === 'working'}>
        <MapPinIcon width={20} height={20} />
        {problem ? 'Try again' : 'Share my location'}
      </Button>
      <p className="max-w-xs text-sm text-muted">
        <ShieldIcon width={16} height={16} className="mr-1 inline-block align-[-3px] text-emerald-700" />
        Your exact position is never shown to anyone.
      </p>
    </section>
  );
}
