import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { lastActive } from './sessions.ts';

const user = me();
const HOUR = 3600_000;
const iso = (ago: number) => new Date(Date.now() - ago).toISOString();
const devices = [
  { id: 'here', device: 'Chrome on Android', createdAt: iso(48 * HOUR), lastUsedAt: iso(0), current: true },
  { id: 'laptop', device: 'Firefox on Windows', createdAt: iso(72 * HOUR), lastUsedAt: iso(3 * HOUR), current: false },
  { id: 'ipad', device: 'Safari on iPad', createdAt: iso(400 * HOUR), lastUsedAt: iso(200 * HOUR), current: false },
];

beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const section = async () => {
  const heading = await screen.findByRole('heading', { name: "Where you're signed in" });
  return within(heading.closest('section')!);
};

describe("settings: where you're signed in", () => {
  it('lists the devices, this one marked, and signs one out', async () => {
    let list = devices;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/auth/sessions': () => json(200, { sessions: list }),
      'DELETE /api/v1/auth/sessions/laptop': () => {
        list = devices.filter((d) => d.id !== 'laptop');
        return new Response(null, { status: 204 });
      },
    });
    start('/settings');
    const s = await section();
    expect(await s.findByText('Firefox on Windows')).toBeTruthy();
    expect(s.getByText('Active 3 hours ago')).toBeTruthy();
    expect(s.getByText('Safari on iPad')).toBeTruthy();
    expect(s.getByText('This device')).toBeTruthy();
    // No 'Sign out' on this device: that is the page's own Sign out.
    expect(s.queryByRole('button', { name: 'Sign out Chrome on Android' })).toBeNull();
    fireEvent.click(s.getByRole('button', { name: 'Sign out Firefox on Windows' }));
    await vi.waitFor(() => expect(s.queryByText('Firefox on Windows')).toBeNull());
    expect(calls.some((c) => c.key === 'DELETE /api/v1/auth/sessions/laptop')).toBe(true);
  });

  it('signs out everywhere else and says how many devices', async () => {
    let list = devices;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/auth/sessions': () => json(200, { sessions: list }),
      'POST /api/v1/auth/sessions/sign-out-others': () => {
        list = devices.filter((d) => d.current);
        return json(200, { signedOut: 2 });
      },
    });
    start('/settings');
    const s = await section();
    fireEvent.click(await s.findByRole('button', { name: 'Sign out everywhere else' }));
    expect((await s.findByRole('status')).textContent).toBe('Signed out of 2 other devices.');
    await vi.waitFor(() => expect(s.queryByText('Safari on iPad')).toBeNull());
    // Nothing else to sign out: the button goes.
    expect(s.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull();
  });

  it('says when the list cannot load, and tries again', async () => {
    let fail = true;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/auth/sessions': () =>
        fail ? json(503, { error: 'unavailable', message: 'Down' }) : json(200, { sessions: devices }),
    });
    start('/settings');
    const s = await section();
    const retry = await s.findByRole('button', { name: 'Try again' }, { timeout: 12_000 });
    expect(s.getByText("Couldn't load your devices")).toBeTruthy();
    fail = false;
    fireEvent.click(retry);
    expect(await s.findByText('Safari on iPad')).toBeTruthy();
  });
});

describe('settings: plan and units', () => {
  it('shows the plan the record says and leads to the plans', async () => {
    serve({ 'GET /api/v1/auth/session': session(user), 'GET /api/v1/auth/sessions': () => json(200, { sessions: [] }) });
    start('/settings');
    const heading = await screen.findByRole('heading', { name: 'Your plan' });
    const plan = within(heading.closest('section')!);
    expect(plan.getByText(user.hasLifetimePremium ? 'Premium' : 'Free')).toBeTruthy();
    expect(plan.getByRole('link').getAttribute('href')).toBe('/settings/premium');
  });

  it('saves the units to the server', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/auth/sessions': () => json(200, { sessions: [] }),
      'PATCH /api/v1/me': () => json(200, me({ preferences: { ...user.preferences, units: 'metric' } })),
    });
    start('/settings');
    const metric = (await screen.findByRole('radio', { name: /Metric/ })) as HTMLInputElement;
    fireEvent.click(metric);
    await vi.waitFor(() => expect(metric.checked).toBe(true));
    expect(calls.find((c) => c.key === 'PATCH /api/v1/me')?.body).toEqual({ preferences: { units: 'metric' } });
  });
});

describe('lastActive', () => {
  it('reads as a person would say it', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const ago = (ms: number) => new Date(now - ms).toISOString();
    expect(lastActive(ago(30_000), now)).toBe('Active now');
    expect(lastActive(ago(5 * 60_000), now)).toBe('Active 5 minutes ago');
    expect(lastActive(ago(3 * HOUR), now)).toBe('Active 3 hours ago');
    expect(lastActive(ago(26 * HOUR), now)).toBe('Active yesterday');
    expect(lastActive(ago(15 * 24 * HOUR), now)).toBe('Active 2 weeks ago');
  });
});
