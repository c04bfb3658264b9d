import 'fake-indexeddb/auto';
import type { Conversation, GridCell, GridPage, Message } from '@fmk/core';
import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeQueryClient } from '../../app/App.tsx';
import { discoveryKeys, gameKeys, messagingKeys } from '../../shared/queryKeys.ts';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { activityKeys } from '../activity/queries.ts';
import { healthKeys } from '../health/queries.ts';
import { messagingStore, OUTBOX_KEY } from '../messaging/store.ts';
import { profileKeys } from '../profiles/queries.ts';
import { OfflineBanner } from './OfflineBanner.tsx';
import {
  clearOfflineData,
  GRID_PAGES_KEPT,
  isPersistedQuery,
  type OfflineSnapshot,
  persistOffline,
  restoreOffline,
  snapshot,
} from './persist.ts';

/** The offline copy as the browser holds it, read with IndexedDB itself (not through our code). */
function stored(): Promise<Record<string, OfflineSnapshot>> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open('fmk-offline', 1);
    req.onupgradeneeded = () => req.result.createObjectStore('snapshots');
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      const tx = db.transaction('snapshots', 'readonly');
      const store = tx.objectStore('snapshots');
      const keys = store.getAllKeys();
      const values = store.getAll();
      tx.oncomplete = () => {
        db.close();
        resolve(Object.fromEntries(keys.result.map((k, i) => [String(k), values.result[i] as OfflineSnapshot])));
      };
    };
  });
}

function write(key: string, value: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open('fmk-offline', 1);
    req.onupgradeneeded = () => req.result.createObjectStore('snapshots');
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      const tx = db.transaction('snapshots', 'readwrite');
      tx.objectStore('snapshots').put(value, key);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
    };
  });
}

const user = me();
const GRID_KEY = discoveryKeys.grid('both', 'dating', { ageMin: 18, ageMax: 50, maxDistance: 50, showMe: 'everyone' });

function cell(i: number): GridCell {
  return {
    uid: `g${i}`,
    displayName: `Grid man ${i}`,
    age: 30,
    photoURL: null,
    distance: '< 1 km',
    isOnline: true,
    currentMode: 'dating',
    rightNow: null,
    verified: false,
    locked: false,
  };
}
const gridPage = (items: GridCell[], nextCursor: string | null = null): GridPage => ({
  items,
  nextCursor,
  clickableLimit: 5,
  opensLeft: 5,
  hasLocation: true,
});

function conversation(over: Partial<Conversation> = {}): Conversation {
  return {
    id: 'c1',
    type: 'matched',
    mode: 'dating',
    matchType: 'mixed',
    isAccepted: true,
    other: { uid: 'u2', displayName: 'Alex', photoURL: null, verified: false, isOnline: false },
    lastMessage: { id: 'm2', senderId: 'u2', type: 'text', content: 'See you at eight', timestamp: new Date().toISOString() },
    lastActivity: new Date().toISOString(),
    unreadCount: 0,
    typing: false,
    createdAt: '2030-01-01T00:00:00.000Z',
    ...over,
  };
}

function message(seq: number, over: Partial<Message> = {}): Message {
  return {
    id: `m${seq}`,
    seq,
    conversationId: 'c1',
    senderId: seq % 2 ? 'u1' : 'u2',
    receiverId: seq % 2 ? 'u2' : 'u1',
    clientId: `client-${seq}`,
    type: 'text',
    content: `message ${seq}`,
    timestamp: '2030-01-02T10:00:00.000Z',
    status: 'read',
    metadata: {},
    ...over,
  };
}

let online = true;

function setOnline(value: boolean) {
  online = value;
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'));
  });
}

/** The stubbed server, unreachable while `online` is false (every fetch fails, as offline). */
function serveWhileOnline(routes: Parameters<typeof serve>[0]) {
  const calls = serve(routes);
  const server = globalThis.fetch;
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
      online ? server(input, init) : Promise.reject(new TypeError('Failed to fetch')),
    ),
  );
  return calls;
}

beforeEach(async () => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  online = true;
  localStorage.clear();
  await clearOfflineData();
  signInStored(user);
});
afterEach(async () => {
  cleanup();
  setOnline(true);
  vi.unstubAllGlobals();
  vi.useRealTimers();
  await clearOfflineData();
});

describe('what the offline copy keeps', () => {
  it('keeps the grid, the conversations and the game counts, and nothing of health, activity or anything else', () => {
    for (const key of [
      GRID_KEY,
      messagingKeys.conversations(),
      messagingKeys.conversation('c1'),
      gameKeys.matches(),
      gameKeys.likes(),
      gameKeys.badges(),
    ])
      expect(isPersistedQuery(key), JSON.stringify(key)).toBe(true);
    for (const key of [
      healthKeys.medications(),
      healthKeys.logs(),
      healthKeys.screenings(),
      ['health', 'summary'],
      activityKeys.contacts(),
      activityKeys.logs(),
      activityKeys.stats(),
      ['contact-photo', '/activity/contacts/k1/photo'],
      ['admin', 'me', 'u1'],
      profileKeys.detail('u2'),
      ['cruise', 'nearby'],
      ['config'],
      // A key that starts like a kept one but is not one.
      ['messaging', 'somethingElse'],
    ])
      expect(isPersistedQuery(key), JSON.stringify(key)).toBe(false);
  });

  it('never writes health or activity data to the browser, and keeps the first grid pages only', async () => {
    const qc = new QueryClient();
    const stop = persistOffline(qc, 'u1');
    const pages = [gridPage([cell(1)], 'p2'), gridPage([cell(2)], 'p3'), gridPage([cell(3)])];
    qc.setQueryData(GRID_KEY, { pages, pageParams: [null, 'p2', 'p3'] });
    qc.setQueryData(messagingKeys.conversations(), [conversation()]);
    qc.setQueryData(healthKeys.medications(), [{ id: 'med1', name: 'SECRET-PrEP-dose' }]);
    qc.setQueryData(healthKeys.screenings(), [{ id: 's1', result: 'SECRET-screening' }]);
    qc.setQueryData(['health', 'summary'], { medications: 'SECRET-summary' });
    qc.setQueryData(activityKeys.logs(), [{ id: 'a1', notes: 'SECRET-activity-notes' }]);
    qc.setQueryData(activityKeys.contacts(), [{ id: 'k1', name: 'SECRET-contact' }]);
    qc.setQueryData(['contact-photo', '/activity/contacts/k1/photo'], 'blob:SECRET-photo');

    window.dispatchEvent(new Event('pagehide'));
    await waitFor(async () => expect(Object.keys(await stored())).toEqual(['user:u1']));
    // The same change again after the write: the copy follows (and is still clean).
    qc.setQueryData(activityKeys.stats(), { total: 'SECRET-stats' });
    qc.setQueryData(messagingKeys.conversations(), [conversation({ id: 'c2' })]);
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(async () => expect(JSON.stringify((await stored())['user:u1'])).toContain('"c2"'));
    stop();

    const copy = (await stored())['user:u1'];
    const text = JSON.stringify(copy);
    expect(text).not.toMatch(/SECRET/);
    const firstParts = copy?.queries.map((q) => q.queryKey[0]);
    expect(firstParts).not.toContain('health');
    expect(firstParts).not.toContain('activity');
    expect(firstParts).not.toContain('contact-photo');
    expect(copy?.queries.map((q) => q.queryKey)).toEqual(
      expect.arrayContaining([GRID_KEY, messagingKeys.conversations()].map((k) => [...k])),
    );
    const grid = copy?.queries.find((q) => q.queryKey[1] === 'grid')?.state.data as { pages: GridPage[] };
    expect(grid.pages).toHaveLength(GRID_PAGES_KEPT);
    // Who was online then is not kept: shown later it would be wrong.
    expect(grid.pages.flatMap((p) => p.items.map((c) => c.isOnline))).toEqual([null, null]);
  });

  it('keeps the newest messages of loaded chats, and a refetch that failed keeps its data', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    messagingStore.addPage('c1', { messages: [message(1), message(2)], hasMore: true }, false);
    const before = '2030-01-01T09:00:00.000Z';
    await qc.prefetchQuery({
      queryKey: messagingKeys.conversations(),
      queryFn: () => [
        conversation({
          other: { uid: 'u2', displayName: 'Alex', photoURL: null, verified: false, isOnline: true },
          lastActivity: before,
          lastMessage: { id: 'm0', senderId: 'u2', type: 'text', content: 'older', timestamp: before },
        }),
      ],
    });
    await qc.prefetchQuery({
      queryKey: messagingKeys.conversations(),
      queryFn: () => Promise.reject(new Error('offline')),
      staleTime: 0,
    });
    const s = snapshot(qc, 'u1');
    expect(s.chats).toEqual([{ conversationId: 'c1', messages: [message(1), message(2)], hasMore: true }]);
    const list = s.queries.find((q) => q.queryKey[1] === 'conversations');
    expect(list?.state.status).toBe('success');
    // The list shows the chat's newest message, newer than the one it was loaded with.
    const saved = (list?.state.data as Conversation[] | undefined)?.[0];
    expect(saved?.id).toBe('c1');
    expect(saved?.lastMessage?.content).toBe('message 2');
    expect(saved?.lastActivity).toBe(message(2).timestamp);
    expect(saved?.other.isOnline).toBeNull();
  });

  it('lists a chat begun after the list was loaded (a new match opened from elsewhere)', () => {
    const qc = new QueryClient();
    qc.setQueryData(messagingKeys.conversations(), []);
    qc.setQueryData(messagingKeys.conversation('c1'), conversation({ lastMessage: null }));
    qc.setQueryData(messagingKeys.conversation('c9'), conversation({ id: 'c9', lastMessage: null }));
    messagingStore.addPage('c1', { messages: [message(1), message(2)], hasMore: false }, false);
    const list = snapshot(qc, 'u1').queries.find((q) => q.queryKey[1] === 'conversations');
    const saved = list?.state.data as Conversation[];
    // c9 was opened but nothing was said: it stays among the new matches, not the list.
    expect(saved.map((c) => c.id)).toEqual(['c1']);
    expect(saved[0]?.lastMessage?.content).toBe('message 2');
  });
});

describe('restoring and clearing', () => {
  it("puts this user's copy back, replaced by the server's newest page once it comes, and drops other users' copies", async () => {
    const qc = new QueryClient();
    qc.setQueryData(messagingKeys.conversations(), [conversation()]);
    messagingStore.addPage('c1', { messages: [message(1), message(2)], hasMore: false }, false);
    await write('user:u1', snapshot(qc, 'u1'));
    await write('user:someone-else', { ...snapshot(qc, 'someone-else'), uid: 'someone-else' });
    messagingStore.reset();

    const fresh = makeQueryClient();
    await restoreOffline(fresh, 'u1').complete;
    expect(fresh.getQueryData<Conversation[]>(messagingKeys.conversations())?.[0]?.id).toBe('c1');
    // Shown, but asked for again as soon as a screen uses it: the copy is not the server's answer of now.
    expect(fresh.getQueryState(messagingKeys.conversations())?.isInvalidated).toBe(true);
    expect(messagingStore.view('c1').messages.map((m) => m.content)).toEqual(['message 1', 'message 2']);
    expect(Object.keys(await stored())).toEqual(['user:u1']);

    // The server's newest page replaces the copy (no gap of what was missed meanwhile).
    messagingStore.addPage('c1', { messages: [message(7), message(8)], hasMore: true }, false);
    expect(messagingStore.view('c1').messages.map((m) => m.seq)).toEqual([7, 8]);
    expect(messagingStore.view('c1').hasMore).toBe(true);
  });

  it("ignores another user's copy and a copy older than a week", async () => {
    const qc = new QueryClient();
    qc.setQueryData(messagingKeys.conversations(), [conversation()]);
    await write('user:u1', { ...snapshot(qc, 'u1'), savedAt: Date.now() - 8 * 24 * 3600_000 });
    const fresh = new QueryClient();
    await restoreOffline(fresh, 'u1').complete;
    expect(fresh.getQueryData(messagingKeys.conversations())).toBeUndefined();
    await write('user:u1', { ...snapshot(qc, 'u1'), uid: 'u9' });
    await restoreOffline(fresh, 'u1').complete;
    expect(fresh.getQueryData(messagingKeys.conversations())).toBeUndefined();
  });

  it('signing out deletes the copy and the queued sends, and a write decided before it never lands after it', async () => {
    const qc = new QueryClient();
    qc.setQueryData(messagingKeys.conversations(), [conversation()]);
    await write('user:u1', snapshot(qc, 'u1'));
    localStorage.setItem(OUTBOX_KEY, JSON.stringify([{ clientId: 'q1', conversationId: 'c1', content: 'later' }]));
    messagingStore.reset();
    expect(messagingStore.queued).toHaveLength(1);

    const stop = persistOffline(qc, 'u1');
    qc.setQueryData(messagingKeys.conversations(), [conversation({ id: 'c3' })]);
    window.dispatchEvent(new Event('pagehide')); // the write is on its way...
    await clearOfflineData(); // ...and the sign-out wins
    await new Promise((r) => setTimeout(r, 50));
    stop();
    expect(await stored()).toEqual({});
    expect(messagingStore.queued).toHaveLength(0);
    expect(localStorage.getItem(OUTBOX_KEY)).toBeNull();
  });

  it('signs out through the app: the copy is gone', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'POST /api/v1/auth/logout': () => new Response(null, { status: 204 }),
      'GET /api/v1/conversations': () => json(200, [conversation()]),
      'GET /api/v1/matches': () => json(200, []),
      'GET /api/v1/likes': () => json(200, { count: 0, unseen: 0, items: [], locked: false }),
      'GET /api/v1/badges': () => json(200, { messages: 0 }),
      'GET /api/v1/config': () => json(200, {}),
      'GET /api/v1/me/settings': () => json(200, {}),
    });
    signInStored(user);
    start('/messages');
    await screen.findByText('See you at eight', undefined, { timeout: 5000 });
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(async () => expect(Object.keys(await stored())).toEqual(['user:u1']));
    cleanup();
    start('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    await waitFor(async () => expect(await stored()).toEqual({}));
  });
});

describe('the app offline', () => {
  async function seedCopy() {
    const qc = new QueryClient();
    qc.setQueryData(GRID_KEY, { pages: [gridPage([cell(1), cell(2), cell(3)])], pageParams: [null] });
    qc.setQueryData(messagingKeys.conversations(), [conversation()]);
    qc.setQueryData(messagingKeys.conversation('c1'), conversation());
    messagingStore.addPage('c1', { messages: [message(1), message(2)], hasMore: false }, false);
    await write('user:u1', snapshot(qc, 'u1'));
    messagingStore.reset();
  }

  it('starts without network on the saved grid, with the offline bar, and asks the server nothing', async () => {
    await seedCopy();
    const calls = serveWhileOnline({ 'GET /api/v1/auth/session': session(user) });
    setOnline(false);
    start('/grid');
    const list = await screen.findByRole('list', { name: 'Men nearby' }, { timeout: 5000 });
    expect(within(list).getByRole('link', { name: /^Grid man 1/ })).toBeTruthy();
    expect(within(list).getAllByRole('link')).toHaveLength(3);
    const banner = screen.getByTestId('offline-banner');
    expect(banner.getAttribute('role')).toBe('status');
    expect(banner.textContent).toContain("You're offline");
    expect(document.documentElement.hasAttribute('data-offline')).toBe(true);
    expect(screen.queryByText("We couldn't load the grid")).toBeNull();
    // Queries wait for the network rather than fail: none reached the server.
    expect(calls).toEqual([]);
  });

  it('shows the saved conversation and its messages offline, and a send waits and goes when back online', async () => {
    await seedCopy();
    serveWhileOnline({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/conversations/c1': () => json(200, conversation()),
      'GET /api/v1/conversations/c1/messages': () => json(200, { messages: [message(1), message(2)], hasMore: false }),
      'POST /api/v1/conversations/c1/messages': (init) => {
        const b = JSON.parse(String(init?.body)) as { clientId: string; content: string };
        return json(201, message(3, { clientId: b.clientId, content: b.content, status: 'sent' }));
      },
    });
    setOnline(false);
    start('/messages/c1');
    const list = await screen.findByRole('list', { name: 'Messages' }, { timeout: 5000 });
    expect(await within(list).findByText('message 2')).toBeTruthy();
    expect(screen.getByTestId('chat-name').textContent).toBe('Alex');

    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'on my way' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(list).findByText('Waiting for connection')).toBeTruthy();
    expect(screen.getByTestId('offline-banner').textContent).toContain('1 message waiting to send');

    setOnline(true);
    expect(await within(list).findByText('Sent')).toBeTruthy();
    expect(within(list).queryByText('Waiting for connection')).toBeNull();
    expect(within(list).getAllByText('on my way')).toHaveLength(1);
  });

  it('shows an offline state, not an error or an endless spinner, where nothing was saved', async () => {
    serveWhileOnline({ 'GET /api/v1/auth/session': session(user) });
    setOnline(false);
    start('/messages');
    expect(
      await screen.findByText("Your conversations load when you're back online.", undefined, { timeout: 5000 }),
    ).toBeTruthy();
    cleanup();
    start('/health');
    expect(
      await screen.findByText(/kept on our server only, encrypted, never on this phone/, undefined, { timeout: 5000 }),
    ).toBeTruthy();
  });
});

describe('the offline bar', () => {
  it('says so while offline, then "Back online" a moment, as a status the screen reader hears', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    setOnline(false);
    render(<OfflineBanner />);
    const bar = screen.getByRole('status');
    expect(bar.textContent).toBe("You're offline· Showing what's saved");
    expect(document.documentElement.hasAttribute('data-offline')).toBe(true);
    setOnline(true);
    expect(bar.textContent).toBe('Back online');
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(bar.textContent).toBe('');
    expect(bar.className).toBe('sr-only');
    expect(document.documentElement.hasAttribute('data-offline')).toBe(false);
  });
});
