import { type CruiseStatus, cruiseLimitText, DEFAULT_APP_PREFERENCES, type NearbyPage } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_PREFERENCES_KEY } from '../../shared/preferences.ts';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { VERIFIED_LABEL } from '../../ui/VerifiedBadge.tsx';

const user = me();

function status(over: Partial<CruiseStatus> = {}): CruiseStatus {
  return {
    session: null,
    period: 'day',
    periodEndsAt: null,
    sessionsThisPeriod: 0,
    minutesThisPeriod: 0,
    totalSessions: 0,
    totalMinutes: 0,
    sessionsLeft: 1,
    nextStartAt: null,
    upsell: null,
    serverTime: new Date().toISOString(),
    locationPrecision: 'exact',
    ...over,
  };
}
const nearby = (over: Partial<NearbyPage> = {}): NearbyPage => ({
  items: [],
  hasLocation: true,
  me: { lat: 52.5, lng: 13.4 },
  radiusKm: 5,
  ...over,
});
const lists = {
  'GET /api/v1/cruise/spots': () => json(200, { items: [], hasLocation: true }),
  'GET /api/v1/cruise/events': () => json(200, { items: [], hasLocation: true }),
  'GET /api/v1/cruise/config': () => json(200, { tileUrl: null, tileAttribution: null }),
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('cruise /cruise', () => {
  it('counts a running session down by the server clock and lists who is cruising nearby', async () => {
    const now = Date.now();
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/cruise/session': () =>
        json(
          200,
          status({
            session: {
              id: 's1',
              startedAt: new Date(now).toISOString(),
              endsAt: new Date(now + 25 * 60_000).toISOString(),
              rightNow: 'A drink',
            },
            serverTime: new Date(now).toISOString(),
            sessionsLeft: 0,
          }),
        ),
      'GET /api/v1/cruise/nearby': () =>
        json(
          200,
          nearby({
            items: [
              {
                uid: 'u2',
                displayName: 'Ben',
                age: 31,
                photoURL: null,
                distance: '2 km',
                cell: { lat: 52.51, lng: 13.41 },
                position: 'Top',
                lookingFor: [],
                rightNow: 'Up for a walk',
                verified: true,
                endsAt: new Date(now + 20 * 60_000).toISOString(),
              },
            ],
          }),
        ),
      ...lists,
    });
    start('/cruise');
    const timer = await screen.findByRole('timer');
    expect(timer.textContent).toMatch(/^(25:00|24:5\d)$/);
    expect(screen.getByText('“A drink”')).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Cruising nearby' });
    const ben = within(list).getByRole('link', { name: 'Ben, 31, verified, 2 km away. Right now: Up for a walk' });
    expect(within(ben).getByRole('img', { name: VERIFIED_LABEL })).toBeTruthy();
    expect(ben.getAttribute('href')).toBe('/profile/u2');
    expect(screen.getByRole('button', { name: 'End session' })).toBeTruthy();
  });

  it("shows the upgrade prompt when the period's session is used, with the counters", async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/cruise/session': () =>
        json(
          200,
          status({
            period: 'week',
            sessionsLeft: 0,
            sessionsThisPeriod: 1,
            minutesThisPeriod: 30,
            totalSessions: 4,
            totalMinutes: 95,
            nextStartAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
            upsell: cruiseLimitText('free'),
          }),
        ),
      'GET /api/v1/cruise/nearby': () => json(200, nearby()),
      ...lists,
    });
    start('/cruise');
    expect(await screen.findByRole('heading', { name: "You've cruised this week" })).toBeTruthy();
    expect(screen.getByText(cruiseLimitText('free'))).toBeTruthy();
    expect(screen.getByText('Next session in 3 h')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/settings/premium');
    expect(screen.getByText('This week: sessions').nextSibling?.textContent).toMatch(/^1/);
    expect(screen.getByText('All time: sessions').nextSibling?.textContent).toMatch(/^4.*95 min/);
    expect(await screen.findByRole('heading', { name: 'No one is cruising near you' })).toBeTruthy();
  });

  it('is off in marry-only mode, and calls nothing', async () => {
    localStorage.setItem(
      APP_PREFERENCES_KEY,
      JSON.stringify({ ...DEFAULT_APP_PREFERENCES, appMode: 'marry', cruisingEnabled: false }),
    );
    const calls = serve({
      'GET /api/v1/auth/session': session({
        ...user,
        appPreferences: { ...user.appPreferences, appMode: 'marry', cruisingEnabled: false },
      }),
    });
    start('/cruise');
    expect(await screen.findByRole('heading', { name: 'Cruising is turned off' })).toBeTruthy();
    expect(calls.filter((c) => c.key.includes('/cruise/'))).toEqual([]);
  });

  it('switches between the nearby, spots and events tabs', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/cruise/session': () => json(200, status()),
      'GET /api/v1/cruise/nearby': () => json(200, nearby({ hasLocation: false, me: null })),
      ...lists,
    });
    start('/cruise');
    expect(await screen.findByRole('heading', { name: "See who's cruising nearby" })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Spots' }));
    expect(await screen.findByRole('heading', { name: 'No spots near you yet' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Events' }));
    expect(await screen.findByRole('heading', { name: 'No events near you' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected')).toBe('true');
  });
});
