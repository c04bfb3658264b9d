import { firstScreenPainted } from './shared/firstScreen.ts';

/**
 * The app's start on /grid (grid.html, vite.config.ts fmk-route-pages): there the page carries
 * this small module instead of the app's entry and its preloads, and the app's code is fetched
 * only once the early script has painted the grid's first screen (early.ts), so that on a slow
 * phone the grid's page and photos come first and do not share the network and the CPU with the
 * app's code (README "Web budgets"). Without a screen to paint it goes on at once.
 *
 * Built on its own (like early.ts): the entry and what to preload come from its script element.
 */
export async function startApp(doc: Document = document): Promise<void> {
  const self = doc.querySelector<HTMLScriptElement>('script[data-fmk-entry]');
  const entry = self?.dataset.fmkEntry;
  if (!entry) throw new Error('The app start has no entry to load');
  await firstScreenPainted(doc.defaultView ?? window);
  for (const href of self.dataset.fmkPreload?.split(' ').filter(Boolean) ?? []) {
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    doc.head.append(link);
  }
  await import(/* @vite-ignore */ entry);
}

if (typeof document !== 'undefined' && document.querySelector('script[data-fmk-entry]')) void startApp();
