import {
  type Alert,
  DEFAULT_SETTINGS,
  MeetupMessages,
  OPEN_SETTINGS_ACTION,
  PRIVACY_UPSELL,
  type Settings,
  toSettings,
} from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_SETTINGS_KEY } from '../../shared/preferences.ts';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const free = me();
const defaults = toSettings(DEFAULT_SETTINGS, null);

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/settings/safety', () => {
  it('saves each switch of the five groups to the server, Premium only where the server gates it', async () => {
    signInStored(free);
    let settings: Settings = defaults;
    const calls = serve({
      'GET /api/v1/auth/session': session(free),
      'GET /api/v1/me/settings': () => json(200, settings),
      'GET /api/v1/me/safety-contact': () => json(200, null),
      'PATCH /api/v1/me/settings': (init) => {
        const body = JSON.parse(String(init?.body)) as { safety: Partial<Settings['safety']> };
        const safety = { ...settings.safety };
        for (const [g, v] of Object.entries(body.safety))
          Object.assign(safety, { [g]: { ...safety[g as 'meetupSafety'], ...v } });
        settings = { ...settings, safety };
        return json(200, settings);
      },
    });
    start('/settings/safety');
    for (const group of ['Photos you receive', 'Your location', 'Who can reach you', 'Meetups', 'Privacy'])
      expect(await screen.findByRole('group', { name: group })).toBeTruthy();

    const links = screen.getByRole('switch', { name: /^Block links from strangers/ }) as HTMLInputElement;
    expect(links.checked).toBe(true);
    fireEvent.click(links);
    await waitFor(() =>
      expect(calls.filter((c) => c.key === 'PATCH /api/v1/me/settings').map((c) => c.body)).toEqual([
        { safety: { communicationSafety: { linkPreventionEnabled: false } } },
      ]),
    );
    fireEvent.click(screen.getByRole('switch', { name: /^Email my contact if I miss a check-in/ }));
    await waitFor(() => expect(settings.safety.meetupSafety.emergencyContactEnabled).toBe(true));
    expect((screen.getByRole('switch', { name: /^Email my contact if I miss a check-in/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(settings.safety.communicationSafety.linkPreventionEnabled).toBe(false);

    // A Free member: the privacy aliases the server gates are locked; the safety switches are not.
    const privacy = screen.getByRole('group', { name: 'Privacy' });
    const hide = within(privacy).getByRole('switch', { name: /^Hide last seen \(Premium\)/ }) as HTMLInputElement;
    expect(hide.disabled).toBe(true);
    expect(within(privacy).getAllByText(PRIVACY_UPSELL).length).toBe(3);
    expect((within(privacy).getByRole('switch', { name: /^Restrict unverified men/ }) as HTMLInputElement).disabled).toBe(false);
  });

  it("keeps a switch on this device when the server can't take it, and syncs it when it answers", async () => {
    signInStored(free);
    let up = false;
    const calls = serve({
      'GET /api/v1/auth/session': session(free),
      'GET /api/v1/me/settings': () => json(200, defaults),
      'GET /api/v1/me/safety-contact': () => json(200, null),
      'PATCH /api/v1/me/settings': () => {
        if (!up) return json(503, { error: 'internal', message: 'Something went wrong' });
        const safety = { ...defaults.safety, locationSafety: { ...defaults.safety.locationSafety, hideExactLocation: true } };
        return json(200, { ...defaults, safety });
      },
    });
    start('/settings/safety');
    fireEvent.click(await screen.findByRole('switch', { name: /^Hide my exact location/ }));
    expect(await screen.findByText('Saved on this device, will sync')).toBeTruthy();
    expect((screen.getByRole('switch', { name: /^Hide my exact location/ }) as HTMLInputElement).checked).toBe(true);
    expect(JSON.parse(localStorage.getItem(APP_SETTINGS_KEY) ?? '{}').pending).toEqual({
      safety: { locationSafety: { hideExactLocation: true } },
    });
    up = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByText('Saved on this device, will sync')).toBeNull());
    expect(calls.filter((c) => c.key === 'PATCH /api/v1/me/settings').at(-1)?.body).toEqual({
      safety: { locationSafety: { hideExactLocation: true } },
    });
  });

  it('saves the trusted contact and safe word, showing the server’s words under the field', async () => {
    signInStored(free);
    const calls = serve({
      'GET /api/v1/auth/session': session(free),
      'GET /api/v1/me/settings': () => json(200, defaults),
      'GET /api/v1/me/safety-contact': () => json(200, null),
      'PUT /api/v1/me/safety-contact': (init) => {
        const body = JSON.parse(String(init?.body)) as { name: string; email: string; safeWord: string | null };
        if (!body.email.includes('@'))
          return json(400, {
            error: 'invalid_input',
            message: MeetupMessages.badEmail,
            fields: { email: MeetupMessages.badEmail },
          });
        return json(200, body);
      },
    });
    start('/settings/safety');
    const form = await screen.findByRole('form', { name: 'Trusted contact' });
    fireEvent.change(within(form).getByLabelText('Their name'), { target: { value: 'Sam' } });
    fireEvent.change(within(form).getByLabelText('Their email'), { target: { value: 'sam.example.com' } });
    fireEvent.change(within(form).getByLabelText('Safe word (optional)'), { target: { value: 'pineapple' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add contact' }));
    const email = within(form).getByLabelText('Their email');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText(MeetupMessages.badEmail)).toBeTruthy();

    fireEvent.change(email, { target: { value: 'sam@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add contact' }));
    expect(await screen.findByText('Trusted contact saved')).toBeTruthy();
    expect(within(form).queryByText(MeetupMessages.badEmail)).toBeNull();
    expect(within(form).getByRole('button', { name: 'Save contact' })).toBeTruthy();
    expect(calls.filter((c) => c.key === 'PUT /api/v1/me/safety-contact').at(-1)?.body).toEqual({
      name: 'Sam',
      email: 'sam@example.com',
      safeWord: 'pineapple',
    });
  });

  it("is reached from the Safety centre's score card and an alert's 'Open settings'", async () => {
    signInStored(free);
    const alert: Alert = {
      id: 'a1',
      type: 'location_warning',
      severity: 'medium',
      title: 'You are sharing an exact location',
      message: 'Others nearby can see where you are.',
      state: 'unread',
      isRead: false,
      isResolved: false,
      contentId: null,
      actions: [OPEN_SETTINGS_ACTION],
      createdAt: '2030-03-04T10:00:00.000Z',
    };
    serve({
      'GET /api/v1/auth/session': session(free),
      'GET /api/v1/me/settings': () => json(200, defaults),
      'GET /api/v1/me/alerts': () => json(200, [alert]),
    });
    start('/safety');
    const link = await screen.findByRole('link', { name: 'All safety settings' });
    expect(link.getAttribute('href')).toBe('/settings/safety');
    fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
    expect(await screen.findByRole('heading', { name: 'Safety settings', level: 1 })).toBeTruthy();
    expect(window.location.pathname).toBe('/settings/safety');
  });
});
