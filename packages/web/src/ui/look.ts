/**
 * The sizes and class names of what the grid's first screen shows: the shell's header, the
 * screen's title row, the email reminder, today's opens and the cells. Their components use them,
 * and so does the first screen painted before the app has started (early-paint.ts, which cannot
 * import React components): one source, so the painted screen and the app's cannot drift apart
 * and nothing moves when the app takes over (README "Web budgets").
 *
 * Pure data, no imports: the early script bundles this file.
 */

/** The element of the first screen painted before the app (early-paint.ts), which the app removes. */
export const FIRST_SCREEN_ID = 'fmk-first-screen';

/** The grid: three columns, cells a little taller than wide (a face and a caption both fit). */
export const GRID = { columns: 3, gap: 6, padding: 8, cellRatio: 1.25 } as const;

/** A cell's size in a grid box `width` pixels wide. */
export function cellSizeFor(width: number): { width: number; height: number } {
  const w = (width - GRID.padding * 2 - GRID.gap * (GRID.columns - 1)) / GRID.columns;
  return { width: w, height: Math.round(w * GRID.cellRatio) };
}

export const LOOK = {
  /** The signed-in frame (AppShell). */
  shell: 'mx-auto flex min-h-[calc(100dvh_-_var(--fmk-offline-inset))] w-full max-w-md flex-col bg-white',
  shellHeader:
    'sticky top-(--fmk-offline-inset) z-20 flex h-14 items-center justify-between gap-3 border-b border-line bg-white px-4',
  brand: 'text-2xl font-black tracking-tight text-primary',
  /** A screen's title row (Page); the grid's actions are buttons of min-h-10 (GridScreen). */
  pageHeader: 'flex items-center gap-2 px-4 pt-4 pb-2',
  pageTitle: 'flex-1 text-2xl font-bold text-ink',
  pageActions: 'flex items-center gap-2',
  /** The 'Confirm your email' reminder (VerifyEmailBanner). */
  banner: 'mx-4 mt-3 flex items-start gap-3 rounded-2xl border border-primary/40 bg-primary-soft p-3',
  bannerText: 'flex flex-1 flex-col gap-1 text-sm text-ink',
  bannerTitle: 'font-semibold',
  bannerEmail: 'font-semibold break-all',
  bannerResend:
    'min-h-11 shrink-0 rounded-full border border-primary-strong bg-white px-4 text-sm font-semibold text-primary-strong hover:bg-white/70 disabled:opacity-50',
  bannerHide: '-mt-1 -mr-1 flex size-11 shrink-0 items-center justify-center rounded-full text-muted hover:bg-white/70',
  /** Today's profile opens, above the grid (GridScreen's OpensLeft). */
  opensLeft: 'mx-2 mb-2 flex min-h-9 items-center justify-between gap-2 rounded-xl bg-primary-soft px-3 text-sm text-ink',
  opensLeftMore: 'font-semibold text-primary-strong underline underline-offset-2',
  /** The grid's box (VirtualGrid) and one cell (ProfileCell). */
  grid: 'pb-4',
  cellWrap: 'relative shrink-0',
  cell: 'relative block overflow-hidden rounded-xl bg-canvas outline-offset-2 focus-visible:outline-3 focus-visible:outline-primary-strong',
  cellPhoto: 'absolute inset-0 size-full',
  cellPhotoLocked: 'scale-110 blur-md brightness-90',
  cellLock: 'absolute inset-x-1 top-0 bottom-10 flex flex-col items-center justify-center gap-1.5',
  cellLockIcon: 'flex size-10 items-center justify-center rounded-full bg-white/90 text-ink shadow',
  cellLockText: 'rounded-full bg-white/90 px-2 py-0.5 text-center text-xs leading-tight font-semibold text-ink shadow',
  cellOnline: 'absolute top-1.5 left-1.5 size-3 rounded-full bg-emerald-500 ring-2 ring-white',
  cellRightNow: 'absolute top-1.5 flex size-6 items-center justify-center rounded-full bg-white/95 text-primary-strong shadow-sm',
  cellCaption: 'absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/80 via-black/45 to-transparent px-2 pt-6 pb-1.5',
  cellName: 'flex items-center gap-1 text-sm leading-tight font-bold text-white',
  cellLine: 'block truncate text-xs leading-tight font-medium text-white/90',
  cellMenu:
    'absolute top-0 right-0 flex size-9 items-center justify-center rounded-tr-xl outline-offset-[-3px] focus-visible:outline-3 focus-visible:outline-white',
  cellMenuDot: 'flex size-6 items-center justify-center rounded-full bg-black/45 text-white',
} as const;
