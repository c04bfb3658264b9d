import { DEFAULT_APP_PREFERENCES, DEFAULT_MODE_SETTINGS } from '@fmk/core';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_PREFERENCES_KEY, APP_SETTINGS_KEY } from '../../shared/preferences.ts';
import { discoveryKeys } from '../../shared/queryKeys.ts';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const user = me();
const marry = { ...DEFAULT_APP_PREFERENCES, appMode: 'marry' as const, cruisingEnabled: false };
const navLabels = () =>
  Array.from(screen.getByRole('navigation', { name: 'Main' }).querySelectorAll('a')).map((a) => a.textContent);

beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('app mode (spec sections 1, 4)', () => {
  it('Marry only brands everything #MK, hides Cruise, syncs, clears caches and refreshes the grid after 1.5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () => json(200, me({ appPreferences: marry })),
    });
    const { queryClient } = start('/settings');
    const radio = await screen.findByRole('radio', { name: /Marry only/ });
    expect(navLabels()).toContain('Cruise');
    queryClient.setQueryData(['profiles', 'detail', 'x'], { stale: true });
    fireEvent.click(radio);
    expect(await screen.findByRole('link', { name: '#MK home' })).toBeTruthy();
    expect(navLabels()).toEqual(['Grid', 'Messages', 'Health', 'Activity', 'Settings']);
    expect(document.title).toBe('#MK');
    expect(JSON.parse(localStorage.getItem(APP_PREFERENCES_KEY) ?? '{}')).toEqual(marry);
    expect(calls.find((c) => c.key === 'PATCH /api/v1/me')?.body).toEqual({ appPreferences: marry });
    // Caches are cleared at once...
    expect(queryClient.getQueryData(['profiles', 'detail', 'x'])).toBeUndefined();
    // ...and the grid is refreshed 1.5 s later.
    const grid = discoveryKeys.grid('marry', 'dating');
    queryClient.setQueryData(grid, []);
    await act(async () => await vi.advanceTimersByTimeAsync(1400));
    expect(queryClient.getQueryState(grid)?.isInvalidated).toBe(false);
    await act(async () => await vi.advanceTimersByTimeAsync(100));
    expect(queryClient.getQueryState(grid)?.isInvalidated).toBe(true);
    // Cruising is off and cannot be turned on in Marry only.
    const cruising = screen.getByRole('switch', { name: /Cruising/ }) as HTMLInputElement;
    expect(cruising.checked).toBe(false);
    expect(cruising.disabled).toBe(true);
  });

  it('keeps the local choice when the server cannot be reached', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    start('/settings');
    fireEvent.click(await screen.findByRole('radio', { name: /Fuck only/ }));
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'F#K home' })).toBeTruthy();
  });

  it("takes the user record's preferences over the local copy on load", async () => {
    localStorage.setItem(APP_PREFERENCES_KEY, JSON.stringify({ ...DEFAULT_APP_PREFERENCES, healthEnabled: false }));
    serve({ 'GET /api/v1/auth/session': session(me({ appPreferences: marry })) });
    start('/grid');
    expect(await screen.findByRole('link', { name: '#MK home' })).toBeTruthy();
    expect(navLabels()).toEqual(['Grid', 'Messages', 'Health', 'Activity', 'Settings']);
  });

  it('hides Health and Activity with their switches', async () => {
    const off = { ...DEFAULT_APP_PREFERENCES, healthEnabled: false };
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () => json(200, me({ appPreferences: off })),
    });
    start('/settings');
    fireEvent.click(await screen.findByRole('switch', { name: 'Health tracking' }));
    await vi.waitFor(() => expect(calls.find((c) => c.key === 'PATCH /api/v1/me')?.body).toEqual({ appPreferences: off }));
    await vi.waitFor(() => expect(navLabels()).toEqual(['Grid', 'Messages', 'Cruise', 'Activity', 'Settings']));
  });
});

describe('mode settings', () => {
  it('saves auto switching and privacy to the server', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () => json(200, me({ modeSettings: { ...DEFAULT_MODE_SETTINGS, autoSwitchByTime: true } })),
    });
    start('/settings');
    fireEvent.click(await screen.findByRole('switch', { name: /Switch mode by time of day/ }));
    await vi.waitFor(() =>
      expect((screen.getByRole('switch', { name: /Switch mode by time of day/ }) as HTMLInputElement).checked).toBe(true),
    );
    const from = screen.getByLabelText('Dating from');
    fireEvent.change(from, { target: { value: '10:30' } });
    fireEvent.blur(from);
    fireEvent.click(screen.getByRole('switch', { name: /Show my mode on my profile/ }));
    const bodies = () => calls.filter((c) => c.key === 'PATCH /api/v1/me').map((c) => c.body);
    await vi.waitFor(() =>
      expect(bodies()).toEqual([
        { modeSettings: { autoSwitchByTime: true } },
        { modeSettings: { timeBasedSwitching: { datingStart: '10:30', datingEnd: '21:00' } } },
        { modeSettings: { privacySettings: { showModeInProfile: false, allowCrossModeMatching: false } } },
      ]),
    );
  });

  it('falls back to local storage under appSettings when the server cannot be reached', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    start('/settings');
    fireEvent.click(await screen.findByRole('switch', { name: /Switch mode by time of day/ }));
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem(APP_SETTINGS_KEY) ?? '{}').pendingMe).toEqual({
      uid: user.uid,
      patch: { modeSettings: { autoSwitchByTime: true } },
    });
  });
});

describe('sign out', () => {
  it("unsubscribes this browser from the account's pushes before the session ends", async () => {
    const unsubscribe = vi.fn(async () => true);
    const subscription = { endpoint: 'https://push.example.test/sub/1', unsubscribe };
    vi.stubGlobal('Notification', { permission: 'granted' });
    vi.stubGlobal('PushManager', class {});
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => ({ pushManager: { getSubscription: async () => subscription } }) },
    });
    try {
      const calls = serve({
        'GET /api/v1/auth/session': session(user),
        'DELETE /api/v1/me/push-subscription': () => new Response(null, { status: 204 }),
        'POST /api/v1/auth/logout': () => new Response(null, { status: 204 }),
      });
      start('/settings');
      fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
      await vi.waitFor(() => expect(calls.some((c) => c.key === 'POST /api/v1/auth/logout')).toBe(true));
      const keys = calls.map((c) => c.key);
      expect(keys.indexOf('DELETE /api/v1/me/push-subscription')).toBeGreaterThan(-1);
      expect(keys.indexOf('DELETE /api/v1/me/push-subscription')).toBeLessThan(keys.indexOf('POST /api/v1/auth/logout'));
      expect(calls.find((c) => c.key === 'DELETE /api/v1/me/push-subscription')?.body).toEqual({
        endpoint: subscription.endpoint,
      });
      expect(unsubscribe).toHaveBeenCalledOnce();
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });
});
