import type { AppMode, GridCell, GridPage, Me } from '@fmk/core';
import { EAGER_ROWS, paintFirstScreen } from './early-paint.ts';

/**
 * The first thing a cold start runs, before the app's JavaScript has even arrived, for the
 * grid's first screen (README "Web budgets"). Opened on /grid with a stored session, it asks for
 * the grid's first page at once and, when it arrives, paints the first screen from it
 * (early-paint.ts: header, title, the first rows of cells with their photos). The app starts
 * once that screen is painted (main.tsx waits for `painted`), so on a slow phone the page and
 * its photos do not share the network and the CPU with the app's code; the app's grid takes the
 * page (queries.ts, takeEarlyPage) if it asked for the same thing, and replaces the painted
 * screen with its own (shared/firstScreen.ts). Anything else (an error, a 401, other filters) is
 * left to the app, which asks again and handles it as usual.
 *
 * Built on its own into a small classic async script in the page's head (vite.config.ts,
 * fmk-early), so it must not import the app: the storage keys and the query string below mirror
 * session.ts, filters.ts, queries.ts, killed.ts, VerifyEmailBanner.tsx and preferences.ts, and
 * early.test.ts holds them to those.
 */
export interface EarlyGridPage {
  path: string;
  at: number;
  page: Promise<GridPage | null>;
}

declare global {
  interface Window {
    __fmkFirstGridPage?: EarlyGridPage;
    /** Settles once the first screen is painted, or at once when there is none to paint. */
    __fmkFirstScreen?: Promise<void>;
  }
}

const TOKEN_KEY = 'auth_token';
const USER_KEY = 'auth_user';
const EXPIRES_AT_KEY = 'auth_expires_at';
const ADVANCED_KEY = 'fmk:grid-advanced';
const ADVANCED = ['onlineOnly', 'withPhotos', 'position', 'tribe', 'heightMin', 'heightMax'] as const;
const KILLED_KEY = 'fmk:killed';
const BANNER_HIDDEN_KEY = 'fmk_verify_banner_hidden';
const APP_PREFERENCES_KEY = 'appPreferences';
const PAGE_SIZE = 60;
/** Cells on a phone's first screen, whose photos load at once with high priority. */
export const FIRST_SCREEN_CELLS = EAGER_ROWS * 3;
/** The app waits no longer than this for the painted first screen (a slow network). */
export const FIRST_SCREEN_WAIT_MS = 3000;
/** Nor for the first screen's photos once the page is there. */
const PHOTOS_WAIT_MS = 1500;

/** The grid's first page (its API path) as the grid will ask for it, or null without a live session. */
export function firstGridPath(
  storage: Storage,
  now: number,
): { path: string; token: string; user: Pick<Me, 'email' | 'emailVerified'> } | null {
  const token = storage.getItem(TOKEN_KEY);
  const expiresAt = Date.parse(storage.getItem(EXPIRES_AT_KEY) ?? '');
  if (!token || !(expiresAt > now)) return null;
  let user: Pick<Me, 'preferences' | 'email' | 'emailVerified'>;
  try {
    user = JSON.parse(storage.getItem(USER_KEY) ?? 'null');
  } catch {
    return null;
  }
  const p = user?.preferences;
  if (!p) return null;
  const params = new URLSearchParams();
  params.set('limit', String(PAGE_SIZE));
  const set = (k: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== false && v !== '') params.set(k, String(v));
  };
  set('ageMin', p.ageRange?.[0]);
  set('ageMax', p.ageRange?.[1]);
  set('maxDistance', p.maxDistance);
  set('showMe', p.showMe);
  try {
    const advanced: unknown = JSON.parse(storage.getItem(ADVANCED_KEY) ?? 'null');
    if (typeof advanced === 'object' && advanced !== null)
      for (const k of ADVANCED) set(k, (advanced as Record<string, unknown>)[k]);
  } catch {
    // Unreadable advanced filters: the grid ignores them too.
  }
  return { path: `/grid?${params}`, token, user: { email: user.email, emailVerified: user.emailVerified } };
}

function readJson(storage: Storage, key: string): unknown {
  try {
    return JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

/** The cells the app's grid shows from this page, in its order: not killed this session, each once. */
export function visibleCells(page: GridPage, session: Storage): GridCell[] {
  const killed = readJson(session, KILLED_KEY);
  const hide = new Set(Array.isArray(killed) ? killed : []);
  return page.items.filter((c) => {
    if (hide.has(c.uid)) return false;
    hide.add(c.uid);
    return true;
  });
}

/** Settles when every photo has loaded or failed, or after `ms`. */
function photosLoaded(win: Window, photos: HTMLImageElement[], ms: number): Promise<void> {
  const each = photos.map(
    (img) =>
      new Promise<void>((resolve) => {
        if (img.complete) resolve();
        img.addEventListener('load', () => resolve(), { once: true });
        img.addEventListener('error', () => resolve(), { once: true });
      }),
  );
  return Promise.race([Promise.all(each).then(() => {}), new Promise<void>((r) => win.setTimeout(r, ms))]);
}

/** After the next frame has been presented (at once in a hidden page, which paints no frames). */
function afterPaint(win: Window): Promise<void> {
  return new Promise((resolve) => {
    if (win.document.visibilityState !== 'visible') return resolve();
    win.requestAnimationFrame(() => win.setTimeout(resolve, 0));
  });
}

function domReady(doc: Document): Promise<void> {
  return doc.readyState === 'loading'
    ? new Promise((r) => doc.addEventListener('DOMContentLoaded', () => r(), { once: true }))
    : Promise.resolve();
}

/** The app has rendered already (it did not wait, or this script came late): nothing to paint over it. */
const appStarted = (doc: Document) => !!doc.getElementById('root')?.hasChildNodes();

async function paint(win: Window, page: GridPage, user: Pick<Me, 'email' | 'emailVerified'>): Promise<void> {
  await domReady(win.document);
  if (!page.hasLocation || appStarted(win.document)) return;
  const prefs = readJson(win.localStorage, APP_PREFERENCES_KEY) as { appMode?: AppMode } | null;
  const bannerHidden = win.sessionStorage.getItem(BANNER_HIDDEN_KEY) === '1';
  const painted = paintFirstScreen(win.document, {
    page,
    items: visibleCells(page, win.sessionStorage),
    appMode: prefs?.appMode,
    unconfirmedEmail: user.emailVerified === false && !bannerHidden ? user.email : null,
  });
  if (!painted) return;
  await photosLoaded(win, painted.photos, PHOTOS_WAIT_MS);
  await afterPaint(win);
}

export function startEarly(win: Window, now = Date.now()): void {
  win.__fmkFirstScreen = Promise.resolve();
  if (win.location.pathname !== '/grid' || appStarted(win.document)) return;
  let first: ReturnType<typeof firstGridPath>;
  try {
    first = firstGridPath(win.localStorage, now);
  } catch {
    return; // storage blocked
  }
  if (!first) return;
  const { user } = first;
  const page = win
    .fetch(`/api/v1${first.path}`, { headers: { authorization: `Bearer ${first.token}` } })
    .then((res) => (res.ok ? (res.json() as Promise<GridPage>) : null))
    .catch(() => null);
  const painted = page.then((p) => (p ? paint(win, p, user) : undefined)).catch(() => {});
  win.__fmkFirstScreen = Promise.race([painted, new Promise<void>((r) => win.setTimeout(r, FIRST_SCREEN_WAIT_MS))]);
  win.__fmkFirstGridPage = { path: first.path, at: now, page };
}

if (typeof window !== 'undefined') startEarly(window);
