import { DEFAULT_APP_PREFERENCES, type Me, type UpdateMe } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_SETTINGS_KEY } from '../../shared/preferences.ts';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const user = me();
const appSettings = () => JSON.parse(localStorage.getItem(APP_SETTINGS_KEY) ?? '{}');
const switchOn = (name: RegExp) => (screen.getByRole('switch', { name }) as HTMLInputElement).checked;
const radioOn = (name: RegExp) => (screen.getByRole('radio', { name }) as HTMLInputElement).checked;
const NOTE = 'Saved on this device, will sync';

/** A server that answers 503 to PATCH /me until `up`, then keeps each change in its record. */
function flakyServer(initial: Me) {
  const state = { up: false, record: initial };
  const calls = serve({
    'GET /api/v1/auth/session': () => session(state.record)(),
    'PATCH /api/v1/me': (init) => {
      if (!state.up) return json(503, { error: 'internal', message: 'Something went wrong' });
      const b = JSON.parse(String(init?.body)) as UpdateMe;
      const r = state.record;
      state.record = {
        ...r,
        appPreferences: { ...r.appPreferences, ...b.appPreferences },
        modeSettings: { ...r.modeSettings, ...b.modeSettings },
        preferences: { ...r.preferences, ...b.preferences },
      };
      return json(200, state.record);
    },
  });
  const patches = () => calls.filter((c) => c.key === 'PATCH /api/v1/me').map((c) => c.body);
  return { state, patches };
}

beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the settings hub's local fallback (spec section 8)", () => {
  it('keeps every failed change under appSettings, shown as chosen, and syncs it when the server answers', async () => {
    const server = flakyServer(user);
    start('/settings');
    fireEvent.click(await screen.findByRole('radio', { name: /Fuck only/ }));
    expect(await screen.findByText(NOTE)).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Health tracking' }));
    fireEvent.click(screen.getByRole('switch', { name: /Right now/ }));
    fireEvent.click(screen.getByRole('radio', { name: /Metric/ }));
    fireEvent.click(screen.getByRole('switch', { name: /Switch mode by time of day/ }));
    const from = screen.getByLabelText('Dating from');
    fireEvent.change(from, { target: { value: '10:30' } });
    fireEvent.blur(from);
    fireEvent.click(screen.getByRole('switch', { name: /Show my mode on my profile/ }));

    const waiting = {
      appPreferences: { ...DEFAULT_APP_PREFERENCES, appMode: 'fuck', healthEnabled: false, rightNowEnabled: true },
      preferences: { units: 'metric' },
      modeSettings: {
        autoSwitchByTime: true,
        timeBasedSwitching: { datingStart: '10:30', datingEnd: '21:00' },
        privacySettings: { showModeInProfile: false, allowCrossModeMatching: false },
      },
    };
    await waitFor(() => expect(appSettings().pendingMe).toEqual({ uid: user.uid, patch: waiting }));
    // Shown as chosen while it waits.
    expect(screen.getByRole('link', { name: 'F#K home' })).toBeTruthy();
    expect(switchOn(/^Health tracking/)).toBe(false);
    expect(radioOn(/Metric/)).toBe(true);
    expect(switchOn(/Switch mode by time of day/)).toBe(true);
    expect(switchOn(/Show my mode on my profile/)).toBe(false);
    expect(screen.getByText(NOTE)).toBeTruthy();

    // The server answers again: the waiting change is sent, once merged, and the note goes.
    server.state.up = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText(NOTE)).toBeNull());
    expect(server.patches().at(-1)).toEqual(waiting);
    expect(appSettings().pendingMe).toBeUndefined();
    expect(server.state.record.preferences.units).toBe('metric');
    expect(server.state.record.modeSettings.autoSwitchByTime).toBe(true);
    expect(radioOn(/Metric/)).toBe(true);
    expect(screen.getByRole('link', { name: 'F#K home' })).toBeTruthy();
  });

  it("after a reload before the sync, shows the waiting change over the server's record, then sends it", async () => {
    const patch = {
      appPreferences: { ...DEFAULT_APP_PREFERENCES, appMode: 'marry', cruisingEnabled: false },
      modeSettings: { autoSwitchByTime: true },
      preferences: { units: 'metric' },
    };
    localStorage.setItem(APP_SETTINGS_KEY, JSON.stringify({ pendingMe: { uid: user.uid, patch } }));
    const server = flakyServer(user);
    start('/settings');
    // The server's record (Both, imperial, no auto switch) came back; the waiting change is shown over it.
    await waitFor(() => expect(server.patches().length).toBeGreaterThan(0));
    expect(await screen.findByRole('link', { name: '#MK home' })).toBeTruthy();
    expect(radioOn(/Marry only/)).toBe(true);
    expect(radioOn(/Metric/)).toBe(true);
    expect(switchOn(/Switch mode by time of day/)).toBe(true);
    expect(screen.getByText(NOTE)).toBeTruthy();

    server.state.up = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText(NOTE)).toBeNull());
    expect(server.patches().at(-1)).toEqual(patch);
    expect(server.state.record.appPreferences.appMode).toBe('marry');
    expect(radioOn(/Marry only/)).toBe(true);
  });

  it('drops a change another account left on this device', async () => {
    localStorage.setItem(
      APP_SETTINGS_KEY,
      JSON.stringify({ pendingMe: { uid: 'someone-else', patch: { preferences: { units: 'metric' } } } }),
    );
    const server = flakyServer(user);
    start('/settings');
    expect(await screen.findByRole('radio', { name: /Imperial/ })).toBeTruthy();
    expect(radioOn(/Imperial/)).toBe(true);
    await waitFor(() => expect(appSettings().pendingMe).toBeUndefined());
    expect(server.patches()).toEqual([]);
  });

  it('drops a waiting change the server refuses, says why and shows its record again', async () => {
    localStorage.setItem(
      APP_SETTINGS_KEY,
      JSON.stringify({ pendingMe: { uid: user.uid, patch: { preferences: { units: 'metric' } } } }),
    );
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () => json(400, { error: 'bad_request', message: 'Units must be metric or imperial.' }),
    });
    start('/settings');
    expect(await screen.findByText('Units must be metric or imperial.')).toBeTruthy();
    await waitFor(() => expect(radioOn(/Imperial/)).toBe(true));
    expect(appSettings().pendingMe).toBeUndefined();
    expect(screen.queryByText(NOTE)).toBeNull();
    expect(calls.filter((c) => c.key === 'GET /api/v1/auth/session').length).toBeGreaterThan(1);
  });
});
