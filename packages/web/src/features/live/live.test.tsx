import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, match, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { BACKOFF_MAX_MS, backoffDelay, LiveClient, type LiveEvent, type SocketLike } from './client.ts';

/** A WebSocket the test drives: open it, push messages, close it with a code. */
class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  push(event: unknown) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

beforeEach(() => {
  FakeSocket.all = [];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('backoff', () => {
  it('doubles from 1 s with jitter and never waits more than 30 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 1)).toBe(8000);
    for (let a = 0; a < 40; a++) expect(backoffDelay(a, Math.random)).toBeLessThanOrEqual(BACKOFF_MAX_MS);
    expect(backoffDelay(30, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });
});

describe('LiveClient', () => {
  const make = (over: Partial<ConstructorParameters<typeof LiveClient>[0]> = {}) => {
    const events: LiveEvent[] = [];
    let token: string | null = 'tok';
    const client = new LiveClient({
      url: 'ws://x/api/v1/live',
      getToken: () => token,
      onEvent: (e) => events.push(e),
      createSocket: (url) => new FakeSocket(url),
      random: () => 1,
      ...over,
    });
    return { client, events, setToken: (t: string | null) => (token = t) };
  };

  it('authenticates with its first message, answers pings and hands events on', () => {
    const { client, events } = make();
    client.start();
    const s = FakeSocket.all[0]!;
    s.open();
    expect(s.sent[0]).toEqual({ type: 'auth', token: 'tok' });
    s.push({ type: 'ready', uid: 'u1' });
    s.push({ type: 'ping' });
    expect(s.sent[1]).toEqual({ type: 'pong' });
    s.push({ type: 'like', count: 3 });
    s.push('not an event');
    // 'ready' is handed on too: a (re)connect is when the app catches up.
    expect(events).toEqual([
      { type: 'ready', uid: 'u1' },
      { type: 'like', count: 3 },
    ]);
    client.stop();
  });

  it('reconnects with growing waits up to 30 s, and starts over after a good connection', () => {
    vi.useFakeTimers();
    const { client } = make();
    client.start();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const s = FakeSocket.all.at(-1)!;
      s.drop();
      const before = FakeSocket.all.length;
      let waited = 0;
      while (FakeSocket.all.length === before) {
        vi.advanceTimersByTime(100);
        waited += 100;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    // A connection that works (the server spoke) resets the backoff.
    const s = FakeSocket.all.at(-1)!;
    s.open();
    s.push({ type: 'ready', uid: 'u1' });
    s.drop();
    vi.advanceTimersByTime(999);
    const n = FakeSocket.all.length;
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all.length).toBe(n + 1);
    client.stop();
  });

  it('stops on 4401 and does not retry with the same token', () => {
    vi.useFakeTimers();
    const onUnauthorized = vi.fn();
    const { client, setToken } = make({ onUnauthorized });
    client.start();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4401);
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    client.nudge();
    expect(FakeSocket.all).toHaveLength(1);
    // A refreshed token may try again.
    setToken('fresh');
    client.nudge();
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.open();
    expect(FakeSocket.all[1]!.sent[0]).toEqual({ type: 'auth', token: 'fresh' });
    client.stop();
  });

  it('pings on its own and replaces a connection that went silent', () => {
    vi.useFakeTimers();
    const { client } = make();
    client.start();
    const s = FakeSocket.all[0]!;
    s.open();
    vi.advanceTimersByTime(25_000);
    expect(s.sent.at(-1)).toEqual({ type: 'ping' });
    vi.advanceTimersByTime(25_000);
    // No answer for 50 s: dropped and reconnected after the backoff.
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all.length).toBe(2);
    client.stop();
  });

  it('stops for good when stopped', () => {
    vi.useFakeTimers();
    const { client } = make();
    client.start();
    FakeSocket.all[0]!.drop();
    client.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });
});

describe('live events in the app', () => {
  it('opens one socket when signed in and turns match and super events into toasts', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const user = me();
    signInStored(user);
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/grid?limit=60&ageMin=18&ageMax=50&maxDistance=50&showMe=everyone': () =>
        json(200, { items: [], nextCursor: null, clickableLimit: 5, hasLocation: true }),
    });
    start('/grid');
    await screen.findByRole('heading', { name: 'No one nearby yet' });
    expect(FakeSocket.all).toHaveLength(1);
    const s = FakeSocket.all[0]!;
    expect(s.url).toMatch(/^ws:\/\/.+\/api\/v1\/live$/);
    s.open();
    expect(s.sent[0]).toEqual({ type: 'auth', token: 'tok' });
    s.push({ type: 'match', match: match(), new: true });
    const toast = await screen.findByText("It's a match!");
    expect(toast.closest('[data-toast-type]')?.getAttribute('data-toast-type')).toBe('match');
    // The same match again (the selection's answer and the event) shows once.
    s.push({ type: 'match', match: match(), new: true });
    s.push({ type: 'super', kind: 'super-marry', from: { uid: 'u7', displayName: 'Jay', photoURL: null } });
    const sup = await screen.findByText('Jay super-married you!');
    const card = sup.closest('[data-toast-type]') as HTMLElement;
    expect(card.getAttribute('data-toast-type')).toBe('super-marry');
    expect(within(card).getByRole('button', { name: 'View profile' })).toBeTruthy();
    expect(screen.getAllByText("It's a match!")).toHaveLength(1);
    // Staff answered a conversation with support: a toast that leads to it.
    s.push({ type: 'support', threadId: 't1', subject: 'Charged twice' });
    const answer = (await screen.findByText('Support answered you')).closest('[data-toast-type]') as HTMLElement;
    expect(within(answer).getByText('Charged twice')).toBeTruthy();
    fireEvent.click(within(answer).getByRole('button', { name: 'Read' }));
    expect(await screen.findByRole('heading', { name: 'Help' })).toBeTruthy();
  });
});

describe('quiet events (his in-app switch is off, says the server)', () => {
  it('updates the screens without a toast for a quiet event, and toasts the next one that is not', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const user = me();
    signInStored(user);
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/grid?limit=60&ageMin=18&ageMax=50&maxDistance=50&showMe=everyone': () =>
        json(200, { items: [], nextCursor: null, clickableLimit: 5, hasLocation: true }),
    });
    start('/grid');
    await screen.findByRole('heading', { name: 'No one nearby yet' });
    const s = FakeSocket.all[0]!;
    s.open();
    const alert = (title: string, quiet?: true) => ({
      type: 'alert',
      alert: { id: title, title, message: 'Take care', severity: 'high' },
      ...(quiet ? { quiet } : {}),
    });
    s.push(alert('Quiet one', true));
    s.push({ type: 'super', kind: 'super-marry', from: { uid: 'u7', displayName: 'Jay', photoURL: null }, quiet: true });
    s.push(alert('Loud one'));
    expect(await screen.findByText('Loud one')).toBeTruthy();
    expect(screen.queryByText('Quiet one')).toBeNull();
    expect(screen.queryByText('Jay super-married you!')).toBeNull();
  });
});

describe('a tier change, live', () => {
  it('shows the upgrade toast and re-reads the session, so the new tier shows without a reload', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const user = me({ subscriptionTier: 'free', hasLifetimePremium: false, isBetaUser: false });
    signInStored(user);
    let current = user;
    serve({
      'GET /api/v1/auth/session': () => json(200, { user: current, expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
      'GET /api/v1/billing': () => json(500, { error: 'internal', message: 'Something went wrong' }),
    });
    start('/settings/premium');
    expect(await screen.findByText('Your plan: Free')).toBeTruthy();
    const s = FakeSocket.all.at(-1)!;
    s.open();
    current = { ...user, subscriptionTier: 'premium' };
    s.push({ type: 'tier', tier: 'premium' });
    const toast = (await screen.findByText("You're on Premium")).closest('[data-toast-type]') as HTMLElement;
    expect(toast.getAttribute('data-toast-type')).toBe('upgrade');
    expect(await screen.findByText('Your plan: Premium')).toBeTruthy();
  });
});
