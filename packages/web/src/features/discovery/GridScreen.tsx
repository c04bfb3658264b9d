import {
  CLICKABLE_UPSELL,
  CLICKABLE_UPSELL_PLATINUM,
  effectiveTier,
  type GridCell,
  type GridPage,
  UNLIMITED,
  usesAdvancedFilters,
} from '@fmk/core';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { dropFirstScreen } from '../../shared/firstScreen.ts';
import { waitingForNetwork } from '../../shared/online.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ErrorState, LoadError } from '../../ui/ErrorState.tsx';
import { GridIcon, HeartIcon } from '../../ui/icons.tsx';
import { LOOK } from '../../ui/look.ts';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { UpgradeSheet } from '../../ui/UpgradeSheet.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { BoostChip } from '../boost/BoostPanel.tsx';
import { useKilled } from '../game/killed.ts';
import { useLikesQuery } from '../game/queries.ts';
import { useUpdateMeMutation } from '../profiles/queries.ts';
import { FiltersSheet, type FiltersValue } from './FiltersSheet.tsx';
import { activeAdvancedCount, basicFilters, useAdvancedFilters } from './filters.ts';
import { LocationConsent } from './LocationConsent.tsx';
import { useLocationRefresh } from './location.ts';
import { useGridQuery } from './queries.ts';
import { GridSkeleton, VirtualGrid } from './VirtualGrid.tsx';

// Built on first use: the grid's first screen does not carry the report and block sheets.
const CellMenu = lazy(async () => ({ default: (await import('./CellMenu.tsx')).CellMenu }));

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
  // The first screen painted before the app (early.ts) is replaced by the grid's cells
  // (VirtualGrid); leaving the grid before then removes it.
  useEffect(() => dropFirstScreen, []);

  const [filtersOpen, setFiltersOpen] = useState(false);
  // The filters form is built on first use, not with the first screen of cells, to keep it off the grid's LCP.
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
  const [menuFor, setMenuFor] = useState<GridCell | null>(null);
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
        <div className={LOOK.pageActions}>
          <BoostChip onUpsell={(message) => setUpsell({ title: 'Boost', message })} />
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
      <GridBody
        query={query}
        onLocked={onLocked}
        onMenu={setMenuFor}
        onClearAdvanced={() => setAdvanced({})}
        onOpenFilters={openFilters}
      />
      {menuFor ? (
        <Suspense fallback={null}>
          <CellMenu key={menuFor.uid} cell={menuFor} onClose={() => setMenuFor(null)} />
        </Suspense>
      ) : null}
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
  onMenu,
  onClearAdvanced,
  onOpenFilters,
}: {
  query: GridQueryResult;
  onLocked: (c: GridCell) => void;
  onMenu: (c: GridCell) => void;
  onClearAdvanced: () => void;
  onOpenFilters: () => void;
}) {
  const killed = useKilled();
  // A page of cells renders in a background, time-sliced pass (the skeleton or the cells so far
  // stay meanwhile): a page arriving never holds the main thread in one long task (the scroll budget: none over 50 ms).
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
        onMenu={onMenu}
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
    <p className={LOOK.opensLeft}>
      <span>
        <strong className="font-bold">{left}</strong> of {page.clickableLimit} profile opens left today
      </span>
      {left === 0 ? (
        <Link to="/settings/premium" className={LOOK.opensLeftMore}>
          Get more
        </Link>
      ) : null}
    </p>
  );
}
