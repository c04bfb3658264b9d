import {
  AUTH_STORAGE_KEYS,
  DEFAULT_DATING_PROFILE,
  DEFAULT_MODE_VISIBILITY,
  DEFAULT_NOW_PROFILE,
  DEFAULT_PREFERENCES,
  DEFAULT_STATS,
  type Me,
} from '@fmk/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPIRES_AT_KEY } from '../features/auth/session.ts';
import { App, makeQueryClient } from './App.tsx';

// The network is the only thing replaced: every component, hook and guard is the real one.
function me(over: Partial<Me> = {}): Me {
  return {
    uid: 'u1',
    anonymousId: 'anon_abcdefghijkl',
    email: 'sam@example.com',
    displayName: 'Sam',
    photoURL: null,
    subscriptionTier: 'free',
    isActive: true,
    onboardingComplete: true,
    isBetaUser: false,
    hasLifetimePremium: false,
    betaJoinedAt: null,
    age: 30,
    gender: null,
    bio: 'Hi',
    photos: [],
    interests: [],
    intentions: [],
    selectedFeatures: [],
    currentMode: 'dating',
    appMode: 'both',
    height: null,
    position: 'Vers',
    tribes: [],
    preferences: DEFAULT_PREFERENCES,
    stats: DEFAULT_STATS,
    datingProfile: DEFAULT_DATING_PROFILE,
    nowProfile: DEFAULT_NOW_PROFILE,
    modeVisibility: DEFAULT_MODE_VISIBILITY,
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    ...over,
  };
}

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function serve(routes: Record<string, Handler>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${String(input)}`;
      calls.push(key);
      const h = routes[key];
      return h ? h(init) : json(404, { error: 'not_found', message: 'Not found' });
    }),
  );
  return calls;
}

function signInStored(user: Me) {
  localStorage.setItem(AUTH_STORAGE_KEYS.token, 'tok');
  localStorage.setItem(AUTH_STORAGE_KEYS.user, JSON.stringify(user));
  localStorage.setItem(EXPIRES_AT_KEY, new Date(Date.now() + 3600_000).toISOString());
}

function start(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App queryClient={makeQueryClient()} />);
}

const config = { googleEnabled: false, vapidPublicKey: null, beta: { eligible: true } };

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
    });
    signInStored(me());
    start('/');
    expect(await screen.findByText('Profiles of men near you will show up here as they join. Check back soon.')).toBeTruthy();
    expect(window.location.pathname).toBe('/grid');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const labels = Array.from(nav.querySelectorAll('a')).map((a) => a.textContent);
    expect(labels).toEqual(['Grid', 'Messages', 'Cruise', 'Health', 'Activity', 'Settings']);
    expect(nav.querySelector('a[aria-current="page"]')?.textContent).toBe('Grid');
  });

  it('hides Cruise in marry-only mode and brands the header #MK', async () => {
    const user = me({ appMode: 'marry' });
    serve({ 'GET /api/v1/auth/session': () => json(200, { user, expiresAt: new Date(Date.now() + 3600_000).toISOString() }) });
    signInStored(user);
    start('/messages');
    expect(await screen.findByText('No conversations yet')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav.textContent).not.toContain('Cruise');
    expect(screen.getByRole('link', { name: '#MK home' })).toBeTruthy();
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

  it('keeps /admin/* for verified staff only', async () => {
    serve({
      'GET /api/v1/auth/session': () => json(200, { user: me(), expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
      'GET /api/v1/admin/me': () => json(403, { error: 'forbidden', message: 'User is not an admin' }),
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
    expect(calls.filter((c) => c === 'POST /api/v1/auth/login')).toHaveLength(2);
  });

  it('checks the password length at sign-up before asking the server', async () => {
    const calls = serve({ 'GET /api/v1/config': () => json(200, { ...config, googleEnabled: true }) });
    start('/auth?mode=signup');
    expect(await screen.findByRole('button', { name: /Continue with Google/ })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Passwords must be at least 8 characters.');
    expect(calls).not.toContain('POST /api/v1/auth/signup');
  });
});
