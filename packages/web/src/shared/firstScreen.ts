import { FIRST_SCREEN_ID } from '../ui/look.ts';

/**
 * The app's side of the first screen painted before it started (early.ts, early-paint.ts): the
 * start waits for it, the grid replaces it, and anything else the app shows removes it.
 */

/** How long the early script may take to run at all before the app starts without it. */
const EARLY_SCRIPT_WAIT_MS = 1000;

/**
 * Settles once the grid's first screen is painted (or there is none to paint, or it takes too
 * long: early.ts bounds it), so the app's code downloads and starts after the page and photos
 * the screen shows, not beside them. Off /grid, at once.
 */
export async function firstScreenPainted(win: Window = window): Promise<void> {
  if (win.location.pathname !== '/grid') return;
  if (!win.__fmkFirstScreen) {
    // The early script is async: it may not have run yet. Its load event follows its run.
    const script = win.document.querySelector<HTMLScriptElement>('script[data-fmk-early]');
    if (script)
      await new Promise<void>((resolve) => {
        script.addEventListener('load', () => resolve(), { once: true });
        script.addEventListener('error', () => resolve(), { once: true });
        win.setTimeout(resolve, EARLY_SCRIPT_WAIT_MS);
      });
  }
  await win.__fmkFirstScreen;
}

/** Removes the painted first screen at once: the app shows something else than that grid. */
export function dropFirstScreen(): void {
  document.getElementById(FIRST_SCREEN_ID)?.remove();
}

/** The longest the app's grid waits for its own first photos before it shows anyway. */
const HANDOVER_WAIT_MS = 1000;

/**
 * The app's grid has rendered the same page: the painted screen goes once the grid's own
 * first-screen photos are decoded (they are the same files, already loaded), so no cell shows
 * empty for a frame. Both have the same geometry (ui/look.ts): nothing moves.
 */
export function handOverFirstScreen(grid: HTMLElement): void {
  const painted = document.getElementById(FIRST_SCREEN_ID);
  if (!painted) return;
  const photos = [...grid.querySelectorAll<HTMLImageElement>('img[loading="eager"]')];
  const decoded = Promise.all(photos.map((img) => (typeof img.decode === 'function' ? img.decode().catch(() => {}) : null)));
  void Promise.race([decoded, new Promise((r) => setTimeout(r, HANDOVER_WAIT_MS))]).then(() =>
    requestAnimationFrame(() => painted.remove()),
  );
}
