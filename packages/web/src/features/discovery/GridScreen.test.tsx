import { ADVANCED_FILTERS_UPSELL, CLICKABLE_UPSELL, type GridCell, type GridPage } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, publicProfile, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { kill, resetKilled } from '../game/killed.ts';

const user = me();
const GRID = 'GET /api/v1/grid?limit=60&ageMin=18&ageMax=50&maxDistance=50&showMe=everyone';

export function cell(i: number, over: Partial<GridCell> = {}): GridCell {
  return {
    uid: `u${i}`,
    displayName: `Man ${i}`,
    age: 20 + (i % 30),
    photoURL: null,
    distance: '< 1 km',
    isOnline: i % 2 === 0,
    currentMode: 'dating',
    rightNow: null,
    verified: false,
    locked: false,
    ...over,
  };
}
const page = (items: GridCell[], over: Partial<GridPage> = {}): GridPage => ({
  items,
  nextCursor: null,
  clickableLimit: 5,
  opensLeft: 0,
  hasLocation: true,
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetKilled();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('grid /grid', () => {
  it('renders open cells as profile links and locked cells as an upgrade prompt', async () => {
    const items = [cell(1, { rightNow: 'Coffee now' }), cell(2), cell(3, { locked: true, displayName: 'Hidden' })];
    serve({ 'GET /api/v1/auth/session': session(user), [GRID]: () => json(200, page(items)) });
    start('/grid');
    const list = await screen.findByRole('list', { name: 'Men nearby' });
    const open = within(list).getByRole('link', { name: 'Man 1, 21, < 1 km away. Right now: Coffee now' });
    expect(open.getAttribute('href')).toBe('/profile/u1');
    expect(within(list).getByRole('link', { name: 'Man 2, 22, < 1 km away, online' })).toBeTruthy();
    // A locked cell names nobody and does not link to the profile.
    expect(within(list).queryByText(/Hidden/)).toBeNull();
    const locked = within(list).getByRole('button', { name: /Locked profile/ });
    const img = open.querySelector('img');
    // The first screen's photos load at once, first (the LCP); the rest lazily as they come near.
    expect(img?.getAttribute('loading')).toBe('eager');
    expect(img?.getAttribute('fetchpriority')).toBe('high');
    expect(img?.getAttribute('width')).toBeTruthy();
    // It says why: today's opens are spent (the count above the grid says 0 of 5).
    expect(locked.getAttribute('aria-label')).toMatch(/No profile opens left today/);
    expect(within(locked).getByText('0 opens left today')).toBeTruthy();
    expect(screen.getByText(/of 5 profile opens left today/).textContent).toBe('0 of 5 profile opens left today');
    fireEvent.click(locked);
    expect(await screen.findByText(CLICKABLE_UPSELL)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See Premium' }).getAttribute('href')).toBe('/settings/premium');
  });

  it('shows an empty state, and an error state whose retry loads the grid', async () => {
    let fail = true;
    serve({
      'GET /api/v1/auth/session': session(user),
      [GRID]: () => (fail ? json(500, { error: 'internal', message: 'boom' }) : json(200, page([]))),
    });
    start('/grid');
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    expect(screen.getByRole('heading', { name: "We couldn't load the grid" })).toBeTruthy();
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByRole('heading', { name: 'No one nearby yet' })).toBeTruthy();
  });

  it('asks for the next page as the end comes into view', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      [GRID]: () =>
        json(
          200,
          page(
            [1, 2, 3, 4, 5, 6].map((i) => cell(i)),
            { nextCursor: 'c2' },
          ),
        ),
      'GET /api/v1/grid?cursor=c2&limit=60&ageMin=18&ageMax=50&maxDistance=50&showMe=everyone': () =>
        json(200, page([cell(7, { displayName: 'Seventh' })])),
    });
    start('/grid');
    expect(await screen.findByRole('link', { name: /^Seventh, 27/ })).toBeTruthy();
    expect(calls.filter((c) => c.key.startsWith('GET /api/v1/grid')).map((c) => c.key)).toHaveLength(2);
  });

  it('counts down the opens left after a profile is opened', async () => {
    let left = 5;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      [GRID]: () => json(200, page([cell(1), cell(2)], { opensLeft: left })),
      'GET /api/v1/users/u2': () => {
        left -= 1;
        return json(200, publicProfile({ uid: 'u2', displayName: 'Man 2' }));
      },
    });
    start('/grid');
    expect((await screen.findByText(/profile opens left today/)).textContent).toBe('5 of 5 profile opens left today');
    expect(screen.queryByRole('link', { name: 'Get more' })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: /^Man 2, 22/ }));
    await screen.findByRole('heading', { name: /Man 2/ });
    fireEvent.click(screen.getByRole('link', { name: 'Back' }));
    await waitFor(() => expect(screen.getByText(/profile opens left today/).textContent).toBe('4 of 5 profile opens left today'));
    expect(calls.filter((c) => c.key === GRID)).toHaveLength(2);
  });

  it('shows no opens count to a tier without a limit', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      [GRID]: () => json(200, page([cell(1)], { clickableLimit: -1, opensLeft: -1 })),
    });
    start('/grid');
    await screen.findByRole('list', { name: 'Men nearby' });
    expect(screen.queryByText(/profile opens left today/)).toBeNull();
  });

  it('hides a profile killed this session', async () => {
    kill('u2');
    serve({ 'GET /api/v1/auth/session': session(user), [GRID]: () => json(200, page([cell(1), cell(2), cell(3)])) });
    start('/grid');
    const list = await screen.findByRole('list', { name: 'Men nearby' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/profile/u1', '/profile/u3']);
    kill('u3');
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(1));
  });

  it('asks for consent, shares the position and loads the grid again', async () => {
    let located = false;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      [GRID]: () => json(200, located ? page([cell(1)]) : page([], { hasLocation: false })),
      'PUT /api/v1/me/location/consent': () => new Response(null, { status: 204 }),
      'PUT /api/v1/me/location': () => {
        located = true;
        return new Response(null, { status: 204 });
      },
    });
    vi.stubGlobal('navigator', {
      ...navigator,
      geolocation: {
        getCurrentPosition: (ok: PositionCallback) => ok({ coords: { latitude: 52.52, longitude: 13.4 } } as GeolocationPosition),
      },
    });
    start('/grid');
    expect(
      await screen.findByText('Share your approximate location to see men nearby. Others only ever see a rounded distance.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Share my location' }));
    expect(await screen.findByRole('link', { name: /^Man 1/ })).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /api/v1/me/location/consent')?.body).toEqual({ consent: true });
    expect(calls.find((c) => c.key === 'PUT /api/v1/me/location')?.body).toEqual({ lat: 52.52, lng: 13.4 });
  });

  it('explains a refused permission and lets the user try again', async () => {
    const calls = serve({ 'GET /api/v1/auth/session': session(user), [GRID]: () => json(200, page([], { hasLocation: false })) });
    vi.stubGlobal('navigator', {
      ...navigator,
      geolocation: {
        getCurrentPosition: (_ok: PositionCallback, fail: PositionErrorCallback) =>
          fail({ code: 1, message: 'denied' } as GeolocationPositionError),
      },
    });
    start('/grid');
    fireEvent.click(await screen.findByRole('button', { name: 'Share my location' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Location is blocked for FMK/);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    // Refused in the browser: no consent was stored on the server (the app's time zone sync aside).
    expect(calls.some((c) => c.key.startsWith('PUT') && c.key !== 'PUT /api/v1/health/settings')).toBe(false);
  });

  it('shows advanced filters to free users with a Premium badge and an upgrade prompt', async () => {
    serve({ 'GET /api/v1/auth/session': session(user), [GRID]: () => json(200, page([cell(1)])) });
    start('/grid');
    fireEvent.click(await screen.findByRole('button', { name: 'Filters' }));
    const sheet = screen.getByRole('dialog', { name: 'Filters', hidden: true });
    expect(within(sheet).getByText('Premium')).toBeTruthy();
    fireEvent.click(within(sheet).getByRole('switch', { name: 'Online now', hidden: true }));
    expect(await screen.findByText(ADVANCED_FILTERS_UPSELL)).toBeTruthy();
  });

  it("shows the server's refusal of advanced filters", async () => {
    localStorage.setItem('fmk:grid-advanced', JSON.stringify({ onlineOnly: true }));
    serve({
      'GET /api/v1/auth/session': session(user),
      [`${GRID}&onlineOnly=true`]: () => json(403, { error: 'limit_reached', message: ADVANCED_FILTERS_UPSELL }),
    });
    start('/grid');
    expect(await screen.findByRole('heading', { name: 'That filter is for Premium' })).toBeTruthy();
    expect(screen.getByText(ADVANCED_FILTERS_UPSELL)).toBeTruthy();
  });
});

describe("a grid cell's options", () => {
  it('reports him from his cell with the block in the same step, staying on the grid, which drops him', async () => {
    let blocked = false;
    let sent: unknown = null;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      [GRID]: () => json(200, page(blocked ? [cell(2)] : [cell(1), cell(2), cell(3, { locked: true })])),
      'POST /api/v1/users/u1/report': (init) => {
        sent = JSON.parse(String(init?.body));
        blocked = true;
        return json(201, { id: 'r1' });
      },
    });
    start('/grid');
    const list = await screen.findByRole('list', { name: 'Men nearby' });
    // The menu is a button beside the cell's link, not inside it; a locked cell has none.
    const options = within(list).getByRole('button', { name: 'Options for Man 1' });
    expect(options.closest('a')).toBeNull();
    expect(
      within(list)
        .getByRole('link', { name: /^Man 1, 21/ })
        .getAttribute('href'),
    ).toBe('/profile/u1');
    expect(within(list).getAllByRole('button', { name: /^Options for/ })).toHaveLength(2);

    fireEvent.click(options);
    fireEvent.click(await screen.findByRole('button', { name: 'Report Man 1' }));
    const form = await screen.findByRole('form', { name: 'Report Man 1' });
    fireEvent.change(within(form).getByLabelText('What kind of problem?'), { target: { value: 'fake_profile' } });
    fireEvent.change(within(form).getByLabelText('What happened, in a few words'), { target: { value: 'Stolen photos' } });
    fireEvent.click(within(form).getByLabelText('Also block him'));
    fireEvent.click(within(form).getByRole('button', { name: 'Send report' }));
    await waitFor(() =>
      expect(sent).toEqual({
        reason: 'Stolen photos',
        category: 'fake_profile',
        description: '',
        screenshotIds: [],
        messageIds: [],
        block: true,
      }),
    );
    await waitFor(() => expect(within(list).queryByRole('link', { name: /^Man 1,/ })).toBeNull());
    expect(window.location.pathname).toBe('/grid');
    expect(calls.filter((c) => c.key === GRID).length).toBeGreaterThan(1);
  });

  it('blocks him from his cell after the confirm step', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      [GRID]: () => json(200, page([cell(1), cell(2)])),
      'POST /api/v1/users/u2/block': () => json(200, { ok: true }),
    });
    start('/grid');
    fireEvent.click(await screen.findByRole('button', { name: 'Options for Man 2' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Block Man 2' }));
    const confirm = await screen.findByRole('dialog', { name: 'Block Man 2?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Block Man 2' }));
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /api/v1/users/u2/block')).toBe(true));
    expect(await screen.findByText('Man 2 is blocked.')).toBeTruthy();
    expect(window.location.pathname).toBe('/grid');
  });
});
