import type { GridPage, Me } from '@fmk/core';

/**
 * The first thing a cold start runs, before the app's JavaScript has even arrived, for the
 * grid's LCP (README "Web budgets"). Opened on /grid with a stored session, it asks for the
 * grid's first page at once and then that page's first-screen photos, so the photos load while
 * the app's code downloads and starts instead of after it. The grid query takes the page (queries.ts, takeEarlyPage) if
 * it asked for the same thing; anything else (an error, a 401, other filters) is left to the
 * query, which asks again and handles it as usual.
 *
 * Built on its own into a small classic async script in the page's head (vite.config.ts,
 * fmk-early), so it must not import anything at run time: the storage keys and the query string
 * below mirror session.ts, filters.ts and queries.ts, and early.test.ts holds them to those.
 */
export interface EarlyGridPage {
  path: string;
  at: number;
  page: Promise<GridPage | null>;
}

declare global {
  interface Window {
    __fmkFirstGridPage?: EarlyGridPage;
  }
}

const TOKEN_KEY = 'auth_token';
const USER_KEY = 'auth_user';
const EXPIRES_AT_KEY = 'auth_expires_at';
const ADVANCED_KEY = 'fmk:grid-advanced';
const ADVANCED = ['onlineOnly', 'withPhotos', 'position', 'tribe', 'heightMin', 'heightMax'] as const;
const PAGE_SIZE = 60;
/** Cells on a phone's first screen, whose photos are fetched at once. */
export const FIRST_SCREEN_CELLS = 12;

/** The grid's first page (its API path) as the grid will ask for it, or null without a live session. */
export function firstGridPath(storage: Storage, now: number): { path: string; token: string } | null {
  const token = storage.getItem(TOKEN_KEY);
  const expiresAt = Date.parse(storage.getItem(EXPIRES_AT_KEY) ?? '');
  if (!token || !(expiresAt > now)) return null;
  let user: Pick<Me, 'preferences'>;
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
  return { path: `/grid?${params}`, token };
}

export function startEarly(win: Window, now = Date.now()): void {
  if (win.location.pathname !== '/grid') return;
  let first: ReturnType<typeof firstGridPath>;
  try {
    first = firstGridPath(win.localStorage, now);
  } catch {
    return; // storage blocked
  }
  if (!first) return;
  const page = win
    .fetch(`/api/v1${first.path}`, { headers: { authorization: `Bearer ${first.token}` } })
    .then((res) => (res.ok ? (res.json() as Promise<GridPage>) : null))
    .catch(() => null);
  page.then((p) => {
    for (const c of p?.items.slice(0, FIRST_SCREEN_CELLS) ?? []) {
      if (!c.photoURL) continue;
      const img = new Image();
      img.fetchPriority = 'high';
      img.src = c.photoURL;
    }
  });
  win.__fmkFirstGridPage = { path: first.path, at: now, page };
}

if (typeof window !== 'undefined') startEarly(window);
