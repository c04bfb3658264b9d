import { DEFAULT_SETTINGS, PRIVACY_UPSELL, toSettings } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_SETTINGS_KEY } from '../../shared/preferences.ts';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const premium = me({ subscriptionTier: 'premium' });
const settings = toSettings(DEFAULT_SETTINGS, null);
const appSettings = () => JSON.parse(localStorage.getItem(APP_SETTINGS_KEY) ?? '{}');

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('settings saved on this device when the server cannot take them (spec section 8)', () => {
  it("keeps a failed save under appSettings, says 'Saved on this device, will sync', and syncs when the server answers", async () => {
    signInStored(premium);
    let up = false;
    const calls = serve({
      'GET /api/v1/auth/session': session(premium),
      'GET /api/v1/me/settings': () => json(200, settings),
      'PATCH /api/v1/me/settings': (init) => {
        if (!up) return json(503, { error: 'internal', message: 'Something went wrong' });
        const body = JSON.parse(String(init?.body));
        return json(200, { ...settings, privacy: { ...settings.privacy, ...body.privacy } });
      },
    });
    start('/settings/privacy');
    const distance = (await screen.findByRole('switch', { name: /^Share my distance/ })) as HTMLInputElement;
    expect(distance.checked).toBe(true);
    fireEvent.click(distance);
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    // Shown as chosen, and kept for later.
    expect((screen.getByRole('switch', { name: /^Share my distance/ }) as HTMLInputElement).checked).toBe(false);
    expect(appSettings().pending).toEqual({ privacy: { shareDistance: false } });
    // A second change while the first waits joins it.
    fireEvent.click(screen.getByRole('switch', { name: /^Send read receipts/ }));
    await waitFor(() => expect(appSettings().pending).toEqual({ privacy: { shareDistance: false, showReadReceipts: false } }));

    up = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText('Saved on this device, will sync')).toBeNull());
    expect(appSettings().pending).toBeUndefined();
    const patches = calls.filter((c) => c.key === 'PATCH /api/v1/me/settings').map((c) => c.body);
    expect(patches.at(-1)).toEqual({ privacy: { shareDistance: false, showReadReceipts: false } });
    expect((screen.getByRole('switch', { name: /^Share my distance/ }) as HTMLInputElement).checked).toBe(false);
  });

  it('puts a refused change back and says why (a Free member and a Premium control)', async () => {
    const free = me();
    signInStored(free);
    serve({
      'GET /api/v1/auth/session': session(free),
      'GET /api/v1/me/settings': () => json(200, settings),
      'PATCH /api/v1/me/settings': () => json(403, { error: 'limit_reached', message: PRIVACY_UPSELL }),
    });
    start('/settings/privacy');
    const shown = (await screen.findAllByText(PRIVACY_UPSELL)).length;
    expect(shown).toBeGreaterThan(1); // the locked card and each locked control
    expect((screen.getByRole('switch', { name: /Share my distance/ }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Only my matches' }));
    // The server's refusal, as a toast.
    await waitFor(() => expect(screen.getAllByText(PRIVACY_UPSELL).length).toBe(shown + 1));
    const visibility = screen.getByRole('group', { name: 'Profile visibility' });
    await waitFor(() =>
      expect((within(visibility).getByRole('radio', { name: 'Everyone' }) as HTMLInputElement).checked).toBe(true),
    );
    expect(appSettings().pending).toBeUndefined();
  });

  it('lists every kind on its channels, mail only where it is sent', async () => {
    signInStored(premium);
    serve({
      'GET /api/v1/auth/session': session(premium),
      'GET /api/v1/me/settings': () => json(200, settings),
      'GET /api/v1/config': () => json(200, {}),
    });
    start('/settings/notifications');
    expect(await screen.findByRole('switch', { name: /^Messages: Push/ })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: /^Messages: Email/ })).toBeNull();
    expect((screen.getByRole('switch', { name: /^Matches: Email/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('switch', { name: /^Health reminders: In-app/ })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: /^Health reminders: Email/ })).toBeNull();
    expect(screen.queryByRole('switch', { name: /^Likes: Email/ })).toBeNull();
    expect((screen.getByRole('switch', { name: /^Safety: Email/ }) as HTMLInputElement).checked).toBe(true);
  });
});
