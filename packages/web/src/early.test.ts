import type { GridPage } from '@fmk/core';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstGridPath, startEarly } from './early.ts';
import { basicFilters, readAdvancedFilters, storeAdvancedFilters } from './features/discovery/filters.ts';
import { gridSearch } from './features/discovery/queries.ts';
import { json, me, serve, session, signInStored, start } from './test/fixtures.tsx';

const user = me({ preferences: { ...me().preferences, ageRange: [25, 40], maxDistance: 20, showMe: 'men' } });
/** The path the grid query itself asks for, from the same stored state. */
const appPath = () => `/grid?${gridSearch({ ...basicFilters(user.preferences), ...readAdvancedFilters() }, null)}`;

beforeEach(() => {
  localStorage.clear();
  window.__fmkFirstGridPage = undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('early first grid page (early.ts)', () => {
  it('asks for exactly the page the grid will, basic and advanced filters alike', () => {
    signInStored(user);
    expect(firstGridPath(localStorage, Date.now())).toEqual({ path: appPath(), token: 'tok' });
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

  it("hands its page to the grid, which then does not ask again, and loads the first screen's photos", async () => {
    signInStored(user);
    const items = Array.from({ length: 15 }, (_, i) => ({
      uid: `u${i}`,
      displayName: `Man ${i}`,
      age: 30,
      photoURL: `/files/p${i}.webp`,
      distance: '1 km',
      isOnline: false,
      currentMode: 'dating' as const,
      rightNow: null,
      verified: false,
      locked: false,
    }));
    const page: GridPage = { items, nextCursor: null, clickableLimit: 50, opensLeft: 50, hasLocation: true };
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      [`GET /api/v1${appPath()}`]: () => json(200, page),
    });
    const images: string[] = [];
    vi.stubGlobal(
      'Image',
      class {
        fetchPriority = '';
        set src(v: string) {
          images.push(v);
        }
      },
    );
    window.history.replaceState(null, '', '/grid');
    startEarly(window);
    expect(calls.map((c) => c.key)).toEqual([`GET /api/v1${appPath()}`]);
    await window.__fmkFirstGridPage?.page;
    await Promise.resolve();
    expect(images).toEqual(items.slice(0, 12).map((c) => c.photoURL));

    start('/grid');
    expect(await screen.findByRole('link', { name: /Man 0, 30/ })).toBeTruthy();
    expect(calls.filter((c) => c.key.includes('/api/v1/grid')).map((c) => c.key)).toHaveLength(1);
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
