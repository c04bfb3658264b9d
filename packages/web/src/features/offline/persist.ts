import { type Conversation, type GridPage, HOUR } from '@fmk/core';
import { type DehydratedState, dehydrate, hydrate, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { discoveryKeys, gameKeys, messagingKeys } from '../../shared/queryKeys.ts';
import { readSession } from '../auth/session.ts';
import { messagingStore, type SavedChat } from '../messaging/store.ts';
import { idbClear, idbDelete, idbGet, idbKeys, idbPut } from './idb.ts';
import { PHOTO_CACHE } from './photoCache.ts';

/**
 * The offline copy: what the signed-in user last saw of the grid, his conversations
 * and their messages, kept in IndexedDB under his id and put back in the query cache and the
 * chat store when the app starts, so that a start without network shows them. Only the
 * queries listed here are kept: anything else, and above all health and activity data (which
 * are kept only on the server, encrypted per user), is never written. Signing out deletes it all.
 */

/** Query keys kept, by prefix. Each is something a screen shows offline. */
export const PERSISTED_QUERIES: readonly QueryKey[] = [
  [...discoveryKeys.all, 'grid'],
  messagingKeys.conversations(),
  [...messagingKeys.all, 'conversation'],
  gameKeys.matches(),
  gameKeys.likes(),
  // The Messages tab's count, in the shell of every screen.
  gameKeys.badges(),
];

/** Never kept, even were a key above to grow to cover them: they stay on the server. */
export const NEVER_PERSISTED: ReadonlySet<unknown> = new Set(['health', 'activity', 'contact-photo', 'admin']);

/** Pages of the grid kept: the first screens of it, not all a long scroll loaded. */
export const GRID_PAGES_KEPT = 2;
/** Chats whose messages are kept (the most recently active), and messages kept of each. */
export const CHATS_KEPT = 30;
export const MESSAGES_KEPT = 50;
/** An older copy is dropped rather than shown. */
export const MAX_AGE_MS = 7 * 24 * HOUR;
/** Writes are gathered: at most one this often. */
export const SAVE_DELAY_MS = 1000;
/** A start does not wait longer than this for the copy (a stuck database). */
const RESTORE_TIMEOUT_MS = 1500;
/** Bumped when what is kept changes shape: an older copy is then ignored. */
const VERSION = 1;

export interface OfflineSnapshot {
  v: number;
  uid: string;
  savedAt: number;
  queries: DehydratedState['queries'];
  chats: SavedChat[];
}

const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, i) => key[i] === part);

export function isPersistedQuery(key: QueryKey): boolean {
  return !NEVER_PERSISTED.has(key[0]) && PERSISTED_QUERIES.some((prefix) => startsWith(key, prefix));
}

const storageKey = (uid: string) => `user:${uid}`;

/** What would be written for this user now: the allowed queries that hold data, and the chats. */
export function snapshot(queryClient: QueryClient, uid: string, now = Date.now()): OfflineSnapshot {
  const { queries } = dehydrate(queryClient, {
    shouldDehydrateMutation: () => false,
    // A refetch that failed keeps its data: that data is still what to show offline.
    shouldDehydrateQuery: (q: Query) => isPersistedQuery(q.queryKey) && q.state.data !== undefined,
  });
  const chats = messagingStore.saved(CHATS_KEPT, MESSAGES_KEPT);
  const opened = queries
    .filter((q) => startsWith(q.queryKey, [...messagingKeys.all, 'conversation']) && q.state.data)
    .map((q) => q.state.data as Conversation);
  return {
    v: VERSION,
    uid,
    savedAt: now,
    queries: queries.map((q) => ({
      ...q,
      state: {
        ...q.state,
        data: withoutPresence(q.queryKey, withNewestMessages(q.queryKey, trimmed(q.queryKey, q.state.data), chats, opened)),
        status: 'success',
        error: null,
        fetchStatus: 'idle',
        fetchFailureCount: 0,
        fetchFailureReason: null,
      },
    })),
    chats,
  };
}

/**
 * Who is online is kept nowhere: shown from the copy, hours later, it would be wrong (the grid's
 * and the lists' dots, the chat's "Online"). Unknown (null) until the server says again.
 */
function withoutPresence(key: QueryKey, data: unknown): unknown {
  if (startsWith(key, [...discoveryKeys.all, 'grid'])) {
    const d = data as { pages?: unknown };
    if (!Array.isArray(d.pages)) return data;
    const pages = (d.pages as GridPage[]).map((p) => ({ ...p, items: p.items.map((c) => ({ ...c, isOnline: null })) }));
    return { ...d, pages };
  }
  const offline = (c: Conversation): Conversation => ({ ...c, other: { ...c.other, isOnline: null } });
  if (startsWith(key, messagingKeys.conversations()) && Array.isArray(data)) return (data as Conversation[]).map(offline);
  if (startsWith(key, [...messagingKeys.all, 'conversation']) && data && typeof data === 'object')
    return offline(data as Conversation);
  return data;
}

/**
 * The conversation list as the chats last showed them: a list loaded before a chat went on
 * (refreshed only while on screen) would show offline an older last message than the chat, or
 * miss a chat begun since (a new match's first messages) that was opened from elsewhere.
 */
function withNewestMessages(key: QueryKey, data: unknown, chats: readonly SavedChat[], opened: readonly Conversation[]): unknown {
  if (!startsWith(key, messagingKeys.conversations()) || !Array.isArray(data)) return data;
  const newest = new Map(chats.map((c) => [c.conversationId, c.messages[c.messages.length - 1]]));
  const listed = new Set((data as Conversation[]).map((c) => c.id));
  const begun = opened.filter((c) => !listed.has(c.id) && newest.has(c.id));
  return [...(data as Conversation[]), ...begun].map((c) => {
    const m = newest.get(c.id);
    if (!m || (c.lastMessage && c.lastMessage.timestamp >= m.timestamp)) return c;
    const { id, senderId, type, content, timestamp } = m;
    return {
      ...c,
      lastMessage: { id, senderId, type, content, timestamp },
      // ISO times: the later one sorts last.
      lastActivity: timestamp.localeCompare(c.lastActivity) > 0 ? timestamp : c.lastActivity,
    };
  });
}

function trimmed(key: QueryKey, data: unknown): unknown {
  if (!startsWith(key, [...discoveryKeys.all, 'grid'])) return data;
  const d = data as { pages?: unknown; pageParams?: unknown };
  if (!Array.isArray(d.pages) || !Array.isArray(d.pageParams)) return data;
  return { ...d, pages: d.pages.slice(0, GRID_PAGES_KEPT), pageParams: d.pageParams.slice(0, GRID_PAGES_KEPT) };
}

/** Raised by every sign-out: a write decided before it never lands after it. */
let generation = 0;

/** Reads this user's copy; other users' copies (left by a session that never signed out) go. */
async function read(uid: string, now: number): Promise<OfflineSnapshot | null> {
  const keep = storageKey(uid);
  for (const k of await idbKeys()) if (k !== keep) await idbDelete(k);
  const s = await idbGet<OfflineSnapshot>(keep);
  if (!s || s.v !== VERSION || s.uid !== uid || now - s.savedAt > MAX_AGE_MS) return null;
  return s;
}

/**
 * The stored session's copy, asked for as soon as this module loads: the database opens while
 * the app's first screen renders rather than after.
 */
let early: { uid: string; copy: Promise<OfflineSnapshot | null> } | null = null;
if (typeof window !== 'undefined') {
  const uid = readSession().user?.uid;
  if (uid) early = { uid, copy: read(uid, Date.now()).catch(() => null) };
}

function withTimeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(fallback), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      () => {
        clearTimeout(t);
        resolve(fallback);
      },
    );
  });
}

/**
 * Puts this user's copy back: queries the app already holds newer data for keep theirs.
 * `started` resolves when the app may start: the copy is in, or reading it took longer than
 * RESTORE_TIMEOUT_MS (a slow disk). `complete` resolves once the copy is read and put back,
 * however late: only then may it be written over, or a slow read would lose what the copy held
 * (the conversation list) to a write of what the first screen fetched.
 */
export function restoreOffline(
  queryClient: QueryClient,
  uid: string,
  stillWanted: () => boolean = () => true,
): { started: Promise<void>; complete: Promise<void> } {
  const mine = generation;
  const pending = early?.uid === uid ? early.copy : read(uid, Date.now());
  early = null;
  const complete = pending.then(
    (s) => {
      // Signed out (or another user in) meanwhile: this copy is not for the app any more.
      if (!s || mine !== generation || !stillWanted()) return;
      // Shown at once, but asked for again as soon as a screen uses them: however recent, the
      // copy is not the server's answer of now (a reload must not keep an old grid for its
      // staleTime). Put back late, a query fetched meanwhile keeps its newer data (hydrate
      // compares dataUpdatedAt) and a chat loaded meanwhile keeps its messages.
      hydrate(queryClient, {
        queries: s.queries.map((q) => ({ ...q, state: { ...q.state, isInvalidated: true } })),
        mutations: [],
      });
      messagingStore.restore(s.chats);
    },
    () => undefined,
  );
  return { started: withTimeout(complete, RESTORE_TIMEOUT_MS, undefined), complete };
}

/**
 * Keeps this user's copy up to date while he is signed in: after any change to a kept query or
 * to the chats, at most once a second, and when the page is hidden or closed. Returns the stop.
 */
export function persistOffline(queryClient: QueryClient, uid: string): () => void {
  const mine = generation;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Kept queries stay in memory as long as the copy is worth having (not the default 5 minutes
  // unobserved), or a screen left a while ago would drop out of the copy at the next write.
  for (const prefix of PERSISTED_QUERIES) queryClient.setQueryDefaults(prefix, { gcTime: MAX_AGE_MS });

  const save = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (mine !== generation) return;
    void idbPut(storageKey(uid), snapshot(queryClient, uid), () => mine === generation);
  };
  const schedule = () => {
    if (!timer && mine === generation) timer = setTimeout(save, SAVE_DELAY_MS);
  };
  const offQueries = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'observerAdded' || event.type === 'observerRemoved' || event.type === 'observerOptionsUpdated') return;
    if (event.type === 'updated' && event.action.type !== 'success') return;
    if (isPersistedQuery(event.query.queryKey)) schedule();
  });
  const offChats = messagingStore.subscribe(schedule);
  // What came in while the copy was being read (a slow start) is written with it.
  schedule();
  const onHide = () => {
    if (timer) save();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') onHide();
  };
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    if (timer) clearTimeout(timer);
    timer = null;
    offQueries();
    offChats();
    window.removeEventListener('pagehide', onHide);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}

/**
 * Signing out (or a revoked session): the offline copy, the photos the service worker kept and
 * the chats in memory, queued sends included, are deleted (spec section 4: stored data is cleared).
 */
export async function clearOfflineData(): Promise<void> {
  generation++;
  early = null;
  messagingStore.forget();
  await Promise.all([idbClear(), typeof caches === 'undefined' ? undefined : caches.delete(PHOTO_CACHE).catch(() => false)]);
}
