import type { GridCell, GridPage } from '@fmk/core';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_CELLS, firstGridPath, startEarly } from './early.ts';
import { basicFilters, readAdvancedFilters, storeAdvancedFilters } from './features/discovery/filters.ts';
import { gridSearch } from './features/discovery/queries.ts';
import { kill, resetKilled } from './features/game/killed.ts';
import { json, me, serve, session, signInStored, start } from './test/fixtures.tsx';
import { FIRST_SCREEN_ID } from './ui/look.ts';

const user = me({ preferences: { ...me().preferences, ageRange: [25, 40], maxDistance: 20, showMe: 'men' } });
/** The path the grid query itself asks for, from the same stored state. */
const appPath = () => `/grid?${gridSearch({ ...basicFilters(user.preferences), ...readAdvancedFilters() }, null)}`;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetKilled();
  window.__fmkFirstGridPage = undefined;
  window.__fmkFirstScreen = undefined;
  document.getElementById(FIRST_SCREEN_ID)?.remove();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('early first grid page (early.ts)', () => {
  it('asks for exactly the page the grid will, basic and advanced filters alike', () => {
    signInStored(user);
    expect(firstGridPath(localStorage, Date.now())).toEqual({
      path: appPath(),
      token: 'tok',
      user: { email: user.email, emailVerified: true },
    });
    storeAdvancedFilters({ onlineOnly: true, position: 'Vers', heightMin: 170, withPhotos: false });
    expect(firstGridPath(localStorage, Date.now())?.path).toBe(appPath());
    expect(appPath()).toContain('onlineOnly=true');
  });

  it('asks for nothing without a live stored session or off /grid', () => {
    expect(firstGridPath(localStorage, Date.now())).toBeNull();
    signInStored(user);
    expect(firstGridPath(localStorage, Date.now() + 2 * 3600_000)).toBeNull();
    localStorage.setItem('auth_user', '{not json');
    expect(firstGridPath(localStorage, Date.now())).toBeNull();
    const calls = serve({});
    signInStored(user);
    startEarly(window);
    expect(calls).toEqual([]);
    expect(window.__fmkFirstGridPage).toBeUndefined();
  });

  it('paints the first screen from its page, hands the page to the grid, which replaces the painting', async () => {
    signInStored(user);
    const items = cells(15);
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      [`GET /api/v1${appPath()}`]: () => json(200, page(items)),
    });
    window.history.replaceState(null, '', '/grid');
    startEarly(window);
    expect(calls.map((c) => c.key)).toEqual([`GET /api/v1${appPath()}`]);
    await window.__fmkFirstGridPage?.page;
    const painted = await waitForPainting();
    // A picture for the eyes only: screen readers and the keyboard get the app's list.
    expect(painted.getAttribute('aria-hidden')).toBe('true');
    expect(painted.hasAttribute('inert')).toBe(true);
    expect(painted.querySelectorAll('a[href]')).toHaveLength(0);
    const photos = [...painted.querySelectorAll<HTMLImageElement>('img[loading="eager"]')];
    expect(photos.map((i) => i.getAttribute('src'))).toEqual(items.slice(0, FIRST_SCREEN_CELLS).map((c) => c.photoURL));
    expect(photos.every((i) => i.getAttribute('fetchpriority') === 'high')).toBe(true);
    expect(painted.textContent).toContain('Man 0, 30');
    expect(painted.textContent).toContain('50 of 50 profile opens left today');
    const firstCell = painted.querySelector('li > *')!.cloneNode(true) as HTMLElement;

    start('/grid');
    const list = await screen.findByRole('list', { name: 'Men nearby' });
    expect(await screen.findByRole('link', { name: /Man 0, 30/ })).toBeTruthy();
    // The same elements and classes as the app's own cell: nothing changes when it takes over.
    expect(shape(firstCell)).toEqual(shape(list.querySelector('li > *')!));
    await vi.waitFor(() => expect(document.getElementById(FIRST_SCREEN_ID)).toBeNull());
    expect(calls.filter((c) => c.key.includes('/api/v1/grid')).map((c) => c.key)).toHaveLength(1);
  });

  it("paints what the app will show: his email's reminder and no man he killed this session", async () => {
    signInStored({ ...user, emailVerified: false });
    const items = cells(6);
    kill('u1');
    serve({ [`GET /api/v1${appPath()}`]: () => json(200, page(items)) });
    window.history.replaceState(null, '', '/grid');
    startEarly(window);
    const painted = await waitForPainting();
    expect(painted.textContent).toContain(`Open the link we sent to ${user.email}.`);
    expect(painted.textContent).not.toContain('Man 1, 30');
    expect(painted.querySelectorAll('img')).toHaveLength(5);
  });

  it('paints nothing without a location, nor over an app that has already rendered', async () => {
    signInStored(user);
    serve({ [`GET /api/v1${appPath()}`]: () => json(200, { ...page(cells(6)), hasLocation: false }) });
    window.history.replaceState(null, '', '/grid');
    startEarly(window);
    await window.__fmkFirstScreen;
    expect(document.getElementById(FIRST_SCREEN_ID)).toBeNull();

    const root = document.createElement('div');
    root.id = 'root';
    root.append('the app');
    document.body.append(root);
    try {
      const calls = serve({});
      startEarly(window);
      await window.__fmkFirstScreen;
      expect(calls).toEqual([]);
      expect(document.getElementById(FIRST_SCREEN_ID)).toBeNull();
    } finally {
      root.remove();
    }
  });

  it('leaves a failed early page to the grid, which asks again and shows it', async () => {
    signInStored(user);
    let n = 0;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      [`GET /api/v1${appPath()}`]: () =>
        n++ === 0
          ? json(500, { error: 'internal', message: 'boom' })
          : json(200, { items: [], nextCursor: null, clickableLimit: 5, opensLeft: 5, hasLocation: true }),
    });
    window.history.replaceState(null, '', '/grid');
    startEarly(window);
    start('/grid');
    expect(await screen.findByText('No one nearby yet')).toBeTruthy();
    expect(calls.filter((c) => c.key.includes('/api/v1/grid'))).toHaveLength(2);
  });
});

function cells(n: number): GridCell[] {
  return Array.from({ length: n }, (_, i) => ({
    uid: `u${i}`,
    displayName: `Man ${i}`,
    age: 30,
    photoURL: `/files/p${i}.webp`,
    distance: '1 km',
    isOnline: i % 2 === 0,
    currentMode: 'dating' as const,
    rightNow: i === 1 ? 'Coffee?' : null,
    verified: i === 0,
    locked: false,
  }));
}

const page = (items: GridCell[]): GridPage => ({ items, nextCursor: null, clickableLimit: 50, opensLeft: 50, hasLocation: true });

async function waitForPainting(): Promise<HTMLElement> {
  await vi.waitFor(() => expect(document.getElementById(FIRST_SCREEN_ID)).not.toBeNull());
  return document.getElementById(FIRST_SCREEN_ID)!;
}

/** An element's look: tags, classes, sizes and picture, without what only the app's has (names for assistive technology, links). */
function shape(e: Element): unknown {
  const classes = [...e.classList].sort().join(' ');
  const style = e.getAttribute('style')?.replace(/\s+/g, '');
  const extra =
    e.tagName === 'IMG' ? { src: e.getAttribute('src'), w: e.getAttribute('width'), h: e.getAttribute('height') } : {};
  return { tag: e.tagName, classes, style, ...extra, children: [...e.children].map(shape) };
}
