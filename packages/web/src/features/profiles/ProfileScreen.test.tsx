import { onlineManager } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientCache } from '../../shared/clientCache.ts';
import { json, me, publicProfile, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const user = me();

beforeEach(() => {
  localStorage.clear();
  clientCache.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('profile view /profile/:userId', () => {
  it('shows the header, the dating and the hookup sections from the data', async () => {
    serve({ 'GET /api/v1/auth/session': session(user), 'GET /api/v1/users/u2': () => json(200, publicProfile()) });
    start('/profile/u2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Alex, 31' })).toBeTruthy();
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.getByText('3 km away')).toBeTruthy();
    expect(screen.getByText('Bread baker, trail runner.')).toBeTruthy();
    const dating = screen.getByRole('region', { name: 'Dating' });
    expect(within(dating).getByText('Sourdough')).toBeTruthy();
    expect(within(dating).getByRole('list', { name: 'Interests' }).textContent).toBe('HikingBaking');
    expect(within(dating).getByRole('list', { name: 'Deal breakers' }).textContent).toBe('Smoking');
    const now = screen.getByRole('region', { name: 'Hookup' });
    // 180 cm in the viewer's imperial units.
    expect(within(now).getByText(`5'11"`)).toBeTruthy();
    expect(within(now).getByText('Athletic')).toBeTruthy();
    expect(within(now).getByText('Coffee downtown')).toBeTruthy();
    expect(within(now).getByText('Tested monthly')).toBeTruthy();
    expect(within(now).queryByRole('list', { name: 'Kinks' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Edit profile/ })).toBeNull();
  });

  it('hides a section the server left out and uses the display defaults', async () => {
    const p = publicProfile({
      displayName: null,
      age: null,
      bio: null,
      dating: null,
      isOnline: false,
      lastSeen: new Date(Date.now() - 3 * 3600_000).toISOString(),
      currentMode: 'something-else',
      distance: null,
    });
    serve({ 'GET /api/v1/auth/session': session(user), 'GET /api/v1/users/u2': () => json(200, p) });
    start('/profile/u2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Anonymous, 25' })).toBeTruthy();
    expect(screen.getByText('No bio yet')).toBeTruthy();
    expect(screen.getByText('Unknown')).toBeTruthy();
    expect(screen.getByText('Active 3h ago')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Dating' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Hookup' })).toBeTruthy();
    const img = screen.getByRole('img', { name: 'Anonymous has no photos yet' });
    expect(img.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  });

  it('likes and unlikes a prompt answer, counting at once', async () => {
    let resolveLike: (r: Response) => void = () => {};
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () => json(200, publicProfile()),
      'POST /api/v1/users/u2/prompts/p1/like': () => new Promise<Response>((r) => (resolveLike = r)),
      'DELETE /api/v1/users/u2/prompts/p1/like': () => json(200, { liked: false, likeCount: 2 }),
    });
    start('/profile/u2');
    const like = await screen.findByRole('button', { name: 'Like the answer to "I geek out on..."' });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(like);
    // Optimistic: the count moves before the server answers.
    expect(await screen.findByText('3')).toBeTruthy();
    expect(like.getAttribute('aria-pressed')).toBe('true');
    resolveLike(json(200, { liked: true, likeCount: 7 }));
    expect(await screen.findByText('7')).toBeTruthy();
    fireEvent.click(like);
    expect(await screen.findByText('2')).toBeTruthy();
    expect(calls.map((c) => c.key).filter((k) => k.includes('/like'))).toEqual([
      'POST /api/v1/users/u2/prompts/p1/like',
      'DELETE /api/v1/users/u2/prompts/p1/like',
    ]);
  });

  it('puts the count back and says so when a like fails', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () => json(200, publicProfile()),
      'POST /api/v1/users/u2/prompts/p1/like': () => json(500, { error: 'internal', message: 'Server trouble' }),
    });
    start('/profile/u2');
    fireEvent.click(await screen.findByRole('button', { name: /Like the answer/ }));
    expect(await screen.findByText('Server trouble')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Like the answer/ }).textContent).toBe('2');
  });

  it('offers Edit profile on your own profile and no like button', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u1': () => json(200, publicProfile({ uid: 'u1', isMe: true, displayName: 'Sam' })),
    });
    start('/profile/u1');
    expect(await screen.findByRole('link', { name: /Edit profile/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Like the answer/ })).toBeNull();
    expect(screen.getByText('2 likes')).toBeTruthy();
  });

  it('says a missing profile is not available', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/nobody': () => json(404, { error: 'not_found', message: 'User not found' }),
    });
    start('/profile/nobody');
    expect(await screen.findByRole('heading', { name: "This profile isn't available" })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the grid' })).toBeTruthy();
  });

  it('says it opens when back online, instead of spinning, when offline with nothing saved', async () => {
    let online = false;
    serve({ 'GET /api/v1/auth/session': session(user), 'GET /api/v1/users/u2': () => json(200, publicProfile()) });
    const served = globalThis.fetch;
    // Offline, nothing answers (any answer would prove the network is there).
    const tried: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
        tried.push(String(input));
        return online ? served(input, init) : Promise.reject(new TypeError('Failed to fetch'));
      }),
    );
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    onlineManager.setOnline(false);
    try {
      start('/profile/u2');
      expect(await screen.findByText("This profile opens when you're back online.")).toBeTruthy();
      expect(tried.filter((u) => u.endsWith('/users/u2'))).toEqual([]);
      online = true;
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
      await act(async () => onlineManager.setOnline(true));
      expect(await screen.findByRole('heading', { level: 1, name: /Alex/ })).toBeTruthy();
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
      onlineManager.setOnline(true);
    }
  });
});
