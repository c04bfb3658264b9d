import type { GridCell } from '@fmk/core';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { handOverFirstScreen } from '../../shared/firstScreen.ts';
import { Button } from '../../ui/Button.tsx';
import { cellSizeFor, GRID, LOOK } from '../../ui/look.ts';
import { ProfileCell, ProfileCellSkeleton } from '../../ui/ProfileCell.tsx';
import { Spinner } from '../../ui/Spinner.tsx';

export const GRID_COLUMNS = GRID.columns;
const { gap: GAP, padding: PADDING } = GRID;
/** Rows kept rendered beyond the screen: enough for a fling, few enough to stay light. */
const OVERSCAN_ROWS = 4;
/** Ask for the next page this many rows before the end. */
const PREFETCH_ROWS = 6;

/** Rows whose photos load at once, with high priority: the first screen of a phone (LCP). */
const EAGER_ROWS = 4;

/** Where the grid was scrolled when the user opened a profile, to come back to the same place. */
let savedScroll = 0;

/** The app's column is at most 448 px wide (max-w-md). */
const MAX_WIDTH = 448;

/**
 * The width of the grid's box, measured (phones differ). It starts from the window's width,
 * which it is on a phone, so the first measure usually changes nothing (no second render).
 */
function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(() =>
    typeof document === 'undefined' ? 0 : Math.min(document.documentElement.clientWidth, MAX_WIDTH),
  );
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

export function VirtualGrid({
  items,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  nextPageFailed,
  onLocked,
  onMenu,
}: {
  items: GridCell[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: (options?: { cancelRefetch?: boolean }) => Promise<unknown>;
  nextPageFailed: boolean;
  onLocked: (c: GridCell) => void;
  onMenu?: (c: GridCell) => void;
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

  // The first screen painted before the app started (early.ts) gives way once these cells show.
  useEffect(() => {
    if (ref.current) handOverFirstScreen(ref.current);
  }, []);

  const virtualRows = virtualizer.getVirtualItems();
  const lastRow = virtualRows[virtualRows.length - 1]?.index ?? -1;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !nextPageFailed && lastRow >= rows - PREFETCH_ROWS)
      // A re-render before isFetchingNextPage turns true must not cancel and repeat the request.
      void fetchNextPage({ cancelRefetch: false });
  }, [lastRow, rows, hasNextPage, isFetchingNextPage, nextPageFailed, fetchNextPage]);

  return (
    <div ref={ref} className={LOOK.grid}>
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
                <ProfileCell
                  key={c.uid}
                  cell={c}
                  size={size}
                  onLocked={onLocked}
                  onMenu={onMenu}
                  eager={row.index < EAGER_ROWS}
                />
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

export function GridSkeleton() {
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
