import { DEFAULT_APP_PREFERENCES, type SelectionResult } from '@fmk/core';
import { onlineManager } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NetworkError } from '../../api/client.ts';
import { storeAppPreferences } from '../../shared/usePreferences.ts';
import { json, match, me, publicProfile, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { ActionBar } from './ActionBar.tsx';
import { isKilled, resetKilled } from './killed.ts';
import { dropQueuedSelections, flushSelections, queuedSelections, queueSelection, SELECTION_OUTBOX_KEY } from './outbox.ts';
import { sendSelection } from './queries.ts';

const user = me();

const result = (over: Partial<SelectionResult> = {}): SelectionResult => ({
  action: 'fuck',
  super: false,
  match: null,
  superRemaining: 1,
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetKilled();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('selection buttons per app mode', () => {
  const names = (appMode: 'both' | 'fuck' | 'marry') => {
    render(<ActionBar appMode={appMode} name="Alex" onPick={() => {}} />);
    const out = screen
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label') ?? b.textContent)
      .filter((n) => n !== 'Super');
    cleanup();
    return out;
  };
  it('offers fuck and marry in both, one of them otherwise, and kill always', () => {
    expect(names('both')).toEqual(['Kill Alex', 'Fuck Alex', 'Marry Alex']);
    expect(names('fuck')).toEqual(['Kill Alex', 'Fuck Alex']);
    expect(names('marry')).toEqual(['Kill Alex', 'Marry Alex']);
  });

  it('arms a super with the Super toggle, and a long press does one at once', () => {
    vi.useFakeTimers();
    const picks: [string, boolean][] = [];
    render(<ActionBar appMode="both" name="Alex" onPick={(a, s) => picks.push([a, s])} />);
    fireEvent.click(screen.getByRole('button', { name: 'Super' }));
    expect(screen.getByRole('button', { name: 'Super' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Super fuck Alex' }));
    // Disarmed after use.
    fireEvent.click(screen.getByRole('button', { name: 'Marry Alex' }));
    const marry = screen.getByRole('button', { name: 'Marry Alex' });
    fireEvent.pointerDown(marry);
    vi.advanceTimersByTime(600);
    fireEvent.pointerUp(marry);
    fireEvent.click(marry);
    expect(picks).toEqual([
      ['fuck', true],
      ['marry', false],
      ['marry', true],
    ]);
  });

  it('picks a touch on release, its touchstart cancelled (no tap gesture, no click follows)', () => {
    const picks: [string, boolean][] = [];
    render(<ActionBar appMode="both" name="Alex" onPick={(a, s) => picks.push([a, s])} />);
    const kill = screen.getByRole('button', { name: 'Kill Alex' });
    // fireEvent answers false when a listener called preventDefault.
    expect(fireEvent.touchStart(kill, { cancelable: true })).toBe(false);
    fireEvent.pointerDown(kill, { pointerType: 'touch' });
    fireEvent.pointerUp(kill, { pointerType: 'touch' });
    expect(picks).toEqual([['kill', false]]);
    // The Super toggle is an ordinary button: a touch there still scrolls and clicks.
    expect(fireEvent.touchStart(screen.getByRole('button', { name: 'Super' }), { cancelable: true })).toBe(true);
  });
});

describe('the game on a profile', () => {
  it('stamps the pick at once, posts it with a client id and shows the match toast', async () => {
    let answer: (r: Response) => void = () => {};
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () => json(200, publicProfile()),
      'POST /api/v1/selections': () => new Promise<Response>((r) => (answer = r)),
    });
    start('/profile/u2');
    fireEvent.click(await screen.findByRole('button', { name: 'Fuck Alex' }));
    // Optimistic: painted before the server answers.
    expect(screen.getByRole('status', { name: 'fuck — Alex' })).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /api/v1/selections')).toBe(true));
    const body = calls.find((c) => c.key === 'POST /api/v1/selections')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ targetId: 'u2', action: 'fuck', super: false });
    expect(String(body.clientId)).toMatch(/^[0-9a-f-]{36}$/);
    answer(json(200, result({ match: match() })));
    const toast = await screen.findByText("It's a match!");
    const card = toast.closest('[data-toast-type]') as HTMLElement;
    expect(card.getAttribute('data-toast-type')).toBe('match');
    expect(within(card).getByText('You and Alex picked each other.')).toBeTruthy();
    // Then back to the grid.
    await waitFor(() => expect(window.location.pathname).toBe('/grid'), { timeout: 2000 });
    fireEvent.click(within(card).getByRole('button', { name: 'Say hi' }));
    expect(window.location.pathname).toBe('/messages/chat/u2');
  });

  it('kills: hides him for the session and moves on', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () => json(200, publicProfile()),
      'POST /api/v1/selections': () => json(200, result({ action: 'kill' })),
    });
    start('/profile/u2');
    fireEvent.click(await screen.findByRole('button', { name: 'Kill Alex' }));
    expect(isKilled('u2')).toBe(true);
    expect(JSON.parse(sessionStorage.getItem('fmk:killed') ?? '[]')).toEqual(['u2']);
    await waitFor(() => expect(window.location.pathname).toBe('/grid'), { timeout: 2000 });
  });

  it('shows only the marry button in marry-only mode, and no buttons on my own profile', async () => {
    storeAppPreferences({ ...DEFAULT_APP_PREFERENCES, appMode: 'marry', cruisingEnabled: false });
    serve({
      'GET /api/v1/auth/session': session(
        me({ appPreferences: { ...DEFAULT_APP_PREFERENCES, appMode: 'marry', cruisingEnabled: false } }),
      ),
      'GET /api/v1/users/u2': () => json(200, publicProfile()),
      'GET /api/v1/users/u1': () => json(200, publicProfile({ uid: 'u1', isMe: true })),
    });
    start('/profile/u2');
    expect(await screen.findByRole('button', { name: 'Marry Alex' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Fuck Alex' })).toBeNull();
    cleanup();
    start('/profile/u1');
    await screen.findByRole('link', { name: /Edit profile/ });
    expect(screen.queryByRole('button', { name: /Kill/ })).toBeNull();
  });

  it('offers an upgrade when the supers are used up', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () => json(200, publicProfile()),
      'POST /api/v1/selections': () => json(403, { error: 'limit_reached', message: 'Super likes are used up for today.' }),
    });
    start('/profile/u2');
    fireEvent.click(await screen.findByRole('button', { name: 'Super' }));
    fireEvent.click(screen.getByRole('button', { name: 'Super marry Alex' }));
    const toast = await screen.findByText('Super likes are used up for today.');
    expect(toast.closest('[data-toast-type]')?.getAttribute('data-toast-type')).toBe('upgrade');
  });

  it('opens a locked profile as an upgrade prompt with the server message', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u9': () =>
        json(403, { error: 'limit_reached', message: 'Open more profiles with Premium membership...' }),
    });
    start('/profile/u9');
    expect(await screen.findByRole('heading', { name: 'This profile is locked' })).toBeTruthy();
    expect(screen.getByText('Open more profiles with Premium membership...')).toBeTruthy();
  });
});

describe('sendSelection', () => {
  it('retries a request that never arrived with the same client id', async () => {
    const bodies: unknown[] = [];
    let n = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        n += 1;
        if (n < 3) throw new TypeError('Failed to fetch');
        return json(200, result());
      }),
    );
    const waits: number[] = [];
    const r = await sendSelection(
      { targetId: 'u2', action: 'fuck', super: false, clientId: 'client-123' },
      [5, 10, 20],
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(r.action).toBe('fuck');
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((b) => (b as { clientId: string }).clientId))).toEqual(new Set(['client-123']));
    expect(waits).toEqual([5, 10]);
  });

  it('does not retry a refusal, and gives up after the last wait', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(403, { error: 'limit_reached', message: 'No' })),
    );
    await expect(
      sendSelection({ targetId: 'u2', action: 'fuck', super: true, clientId: 'c-12345678' }, [1], async () => {}),
    ).rejects.toThrow('No');
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('offline');
      }),
    );
    await expect(
      sendSelection({ targetId: 'u2', action: 'fuck', super: false, clientId: 'c-12345678' }, [1, 1], async () => {}),
    ).rejects.toThrow();
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(3);
  });
});

describe('picks made offline', () => {
  const goOffline = (offline: boolean) => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !offline });
    onlineManager.setOnline(!offline);
  };
  afterEach(() => goOffline(false));

  it('waits on the phone and goes when the network is back, with the same client id, then shows the match', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () => json(200, publicProfile()),
      'POST /api/v1/selections': () => json(200, result({ action: 'marry', match: match({ id: 'm-made-offline' }) })),
    });
    start('/profile/u2');
    const marry = await screen.findByRole('button', { name: 'Marry Alex' });
    await act(async () => goOffline(true));
    fireEvent.click(marry);
    expect(await screen.findByText('Saved for later')).toBeTruthy();
    const queued = queuedSelections();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ targetId: 'u2', action: 'marry' });
    expect(calls.some((c) => c.key === 'POST /api/v1/selections')).toBe(false);
    await act(async () => goOffline(false));
    expect(await screen.findByText("It's a match!")).toBeTruthy();
    const posts = calls.filter((c) => c.key === 'POST /api/v1/selections').map((c) => (c.body as { clientId: string }).clientId);
    expect(posts).toEqual([queued[0]!.clientId]);
    expect(queuedSelections()).toHaveLength(0);
  });

  it('keeps the latest pick per man, and tells a refusal once back', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () => json(200, publicProfile()),
      'POST /api/v1/selections': () => json(403, { error: 'limit_reached', message: 'Upgrade for more.' }),
    });
    start('/profile/u2');
    const fuck = await screen.findByRole('button', { name: 'Fuck Alex' });
    await act(async () => goOffline(true));
    fireEvent.click(fuck);
    await waitFor(() => expect(queuedSelections()).toHaveLength(1));
    queueSelection({ targetId: 'u2', action: 'marry', super: false, clientId: 'client-later' });
    expect(queuedSelections().map((p) => p.action)).toEqual(['marry']);
    await act(async () => goOffline(false));
    expect(await screen.findByText('Upgrade for more.')).toBeTruthy();
    expect(queuedSelections()).toHaveLength(0);
  });

  it('keeps the rest for next time when the network drops again mid-flush', async () => {
    queueSelection({ targetId: 'a', action: 'fuck', super: false, clientId: 'client-a0001' });
    queueSelection({ targetId: 'b', action: 'marry', super: false, clientId: 'client-b0001' });
    const sent: string[] = [];
    await flushSelections({ sent: () => {}, refused: () => {} }, async (b) => {
      if (b.targetId === 'b') throw new NetworkError('offline');
      sent.push(b.targetId);
      return result();
    });
    expect(sent).toEqual(['a']);
    expect(queuedSelections().map((p) => p.targetId)).toEqual(['b']);
    dropQueuedSelections();
    expect(localStorage.getItem(SELECTION_OUTBOX_KEY)).toBeNull();
  });
});
