import { AUTH_STORAGE_KEYS, DEFAULT_APP_PREFERENCES } from '@fmk/core';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPIRES_AT_KEY } from '../features/auth/session.ts';
import { config, json, me, serve, signInStored, start } from '../test/fixtures.tsx';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('app routes and guards', () => {
  it('sends a signed-out visitor from /grid to the landing page', async () => {
    serve({});
    start('/grid');
    expect(await screen.findByRole('link', { name: 'Sign up' })).toBeTruthy();
    expect(window.location.pathname).toBe('/');
  });

  it('sends a signed-in user with an incomplete profile to /onboarding', async () => {
    serve({
      'GET /api/v1/auth/session': () =>
        json(200, { user: me({ onboardingComplete: false }), expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
    });
    signInStored(me({ onboardingComplete: false }));
    start('/settings');
    expect(await screen.findByRole('heading', { name: 'The basics' })).toBeTruthy();
    expect(window.location.pathname).toBe('/onboarding');
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
  });

  it('takes a complete user from / to /grid with the bottom navigation', async () => {
    serve({
      'GET /api/v1/auth/session': () => json(200, { user: me(), expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
      'GET /api/v1/grid?limit=60&ageMin=18&ageMax=50&maxDistance=50&showMe=everyone': () =>
        json(200, { items: [], nextCursor: null, clickableLimit: 5, opensLeft: 5, hasLocation: false }),
    });
    signInStored(me());
    start('/');
    expect(await screen.findByRole('heading', { name: "See who's nearby" })).toBeTruthy();
    expect(window.location.pathname).toBe('/grid');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const labels = Array.from(nav.querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual(['Grid', 'Messages', 'Cruise', 'Health', 'Activity', 'Settings']);
    expect(nav.querySelector('a[aria-current="page"]')?.textContent).toBe('Grid');
  });

  it('hides Cruise in marry-only mode and brands the header #MK', async () => {
    const user = me({ appPreferences: { ...DEFAULT_APP_PREFERENCES, appMode: 'marry', cruisingEnabled: false } });
    serve({
      'GET /api/v1/auth/session': () => json(200, { user, expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
      'GET /api/v1/conversations': () => json(200, []),
    });
    signInStored(user);
    start('/messages');
    expect(await screen.findByText('No conversations yet')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav.textContent).not.toContain('Cruise');
    expect(screen.getByRole('link', { name: '#MK home' })).toBeTruthy();
  });

  it('opens a stored, unexpired session at once, without waiting for the server to confirm it', async () => {
    serve({
      // The check never answers here: the grid shows from the stored session regardless.
      'GET /api/v1/auth/session': () => new Promise<Response>(() => {}),
      'GET /api/v1/grid?limit=60&ageMin=18&ageMax=50&maxDistance=50&showMe=everyone': () =>
        json(200, { items: [], nextCursor: null, clickableLimit: 5, opensLeft: 5, hasLocation: false }),
    });
    signInStored(me());
    start('/grid');
    expect(await screen.findByRole('heading', { name: "See who's nearby" })).toBeTruthy();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('clears a revoked session and shows the landing page', async () => {
    serve({ 'GET /api/v1/auth/session': () => json(401, { error: 'unauthorized', message: 'Authentication required' }) });
    signInStored(me());
    start('/grid');
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(localStorage.getItem(AUTH_STORAGE_KEYS.token)).toBeNull();
  });

  it('shows the init failure on the error screen when the server is unreachable and nothing valid is stored', async () => {
    serve({ 'GET /api/v1/auth/session': () => Promise.reject(new TypeError('Failed to fetch')) });
    localStorage.setItem(AUTH_STORAGE_KEYS.token, 'tok');
    localStorage.setItem(EXPIRES_AT_KEY, new Date(Date.now() + 3600_000).toISOString());
    start('/grid');
    expect(await screen.findByText('Failed to initialize authentication')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeTruthy();
  });

  it('renders the error screen at /debug/crash in any state', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serve({});
    start('/debug/crash');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText("We're sorry, but something unexpected happened. Please try again.")).toBeTruthy();
  });

  it('keeps /admin/* for a staff session only: a member signed in is sent to the staff sign-in', async () => {
    serve({
      'GET /api/v1/auth/session': () => json(200, { user: me(), expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
    });
    signInStored(me());
    start('/admin/users');
    expect(await screen.findByRole('heading', { name: 'FMK Admin' })).toBeTruthy();
    expect(window.location.pathname).toBe('/admin/login');
  });
});

describe('sign-in', () => {
  it("shows the server's message when sign-in fails, then signs in", async () => {
    let attempts = 0;
    const calls = serve({
      'GET /api/v1/config': () => json(200, config),
      'POST /api/v1/auth/login': () => {
        attempts++;
        return attempts === 1
          ? json(401, { error: 'invalid_credentials', message: 'Incorrect email or password.' })
          : json(200, {
              token: 'new',
              expiresAt: new Date(Date.now() + 3600_000).toISOString(),
              user: me({ onboardingComplete: false }),
            });
      },
    });
    start('/auth?mode=signin');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'Sam@Example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect email or password.');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'The basics' })).toBeTruthy();
    expect(localStorage.getItem(AUTH_STORAGE_KEYS.token)).toBe('new');
    expect(calls.filter((c) => c.key === 'POST /api/v1/auth/login')).toHaveLength(2);
  });

  it('checks the password length at sign-up before asking the server', async () => {
    const calls = serve({ 'GET /api/v1/config': () => json(200, { ...config, googleEnabled: true }) });
    start('/auth?mode=signup');
    expect(await screen.findByRole('button', { name: /Continue with Google/ })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Passwords must be at least 8 characters.');
    expect(calls.map((c) => c.key)).not.toContain('POST /api/v1/auth/signup');
  });
});
