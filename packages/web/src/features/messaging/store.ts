import { type Message, type MessagePage, type Photo, type SendMessage, TYPING_TIMEOUT_MS } from '@fmk/core';
import { call } from '../../api/call.ts';
import { ApiError, NetworkError } from '../../api/client.ts';

/**
 * The chat's client state, outside React so that live events, the outbox and screens share one
 * copy: messages by conversation (deduplicated by id and clientId, ordered by the global seq),
 * the outbox of sends not yet confirmed (kept in localStorage so a reload keeps them), who is
 * typing (off by itself after TYPING_TIMEOUT_MS) and the highest seq seen (the catch-up cursor).
 * The newest messages of each chat are also kept on the phone for offline use (features/offline).
 */
export const OUTBOX_KEY = 'outbox';

export type PendingState = 'sending' | 'waiting';
export interface Pending {
  clientId: string;
  conversationId: string;
  senderId: string;
  type: SendMessage['type'];
  content: string;
  photoId?: string;
  photo?: Photo;
  timestamp: string;
  state: PendingState;
}

export interface ChatView {
  messages: readonly Message[];
  pending: readonly Pending[];
  typing: boolean;
  hasMore: boolean;
  loaded: boolean;
}

/** A chat as the offline copy keeps it: its newest messages, and whether older ones exist. */
export interface SavedChat {
  conversationId: string;
  messages: Message[];
  hasMore: boolean;
}

const RANK = { sent: 0, delivered: 1, read: 2 } as const;

/** A send the server refused (not a lost connection): the caller tells the user. */
export type SendRefusal = ApiError;
type Send = (p: Pending) => Promise<Message>;

const defaultSend: Send = (p) =>
  call('POST /conversations/:id/messages', {
    params: { id: p.conversationId },
    body: { clientId: p.clientId, type: p.type, content: p.content, ...(p.photoId ? { photoId: p.photoId } : {}) },
  });

/** Lost on the way (offline, DNS, a server down or restarting): worth sending again later. */
function isTransient(e: unknown): boolean {
  return e instanceof NetworkError || (e instanceof ApiError && e.status >= 500);
}

export class MessagingStore {
  private messages = new Map<string, Message[]>();
  private hasMore = new Map<string, boolean>();
  /** Chats shown from the offline copy until the server's newest page replaces them: their saved message ids. */
  private restored = new Map<string, Set<string>>();
  private outbox: Pending[] = [];
  private typing = new Map<string, ReturnType<typeof setTimeout>>();
  private views = new Map<string, ChatView>();
  private listeners = new Set<() => void>();
  private flushing = false;
  /** Sends on their way: each is tried by one caller at a time. */
  private inFlight = new Set<string>();
  /** The highest seq this tab has seen: GET /messages/since?after= after a reconnect. */
  maxSeq = 0;
  send: Send = defaultSend;
  /** Called when the server refuses a queued send (a limit, a block): the UI shows why. */
  onRefused: ((e: ApiError, p: Pending) => void) | null = null;

  constructor() {
    this.outbox = readOutbox();
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  view(conversationId: string): ChatView {
    let v = this.views.get(conversationId);
    if (!v) {
      // Built once and kept, so that React sees the same snapshot until something changes (a
      // reload's queued sends show before any page of the chat has loaded).
      v = this.build(conversationId);
      this.views.set(conversationId, v);
    }
    return v;
  }

  typingIds(): string[] {
    return [...this.typing.keys()].sort();
  }

  isTyping(conversationId: string): boolean {
    return this.typing.has(conversationId);
  }

  private build(id: string): ChatView {
    return {
      messages: this.messages.get(id) ?? [],
      pending: this.outbox.filter((p) => p.conversationId === id),
      typing: this.typing.has(id),
      hasMore: this.hasMore.get(id) ?? false,
      loaded: this.messages.has(id),
    };
  }

  private changed(ids: Iterable<string>): void {
    for (const id of new Set(ids)) this.views.set(id, this.build(id));
    for (const fn of this.listeners) fn();
  }

  /** Adds messages, ignoring ones already held; a confirmed message retires its pending copy. */
  merge(list: readonly Message[]): Message[] {
    const added: Message[] = [];
    const touched = new Set<string>();
    for (const m of list) {
      this.maxSeq = Math.max(this.maxSeq, m.seq);
      const held = this.messages.get(m.conversationId);
      const before = this.outbox.length;
      this.outbox = this.outbox.filter((p) => p.clientId !== m.clientId);
      if (this.outbox.length !== before) {
        writeOutbox(this.outbox);
        touched.add(m.conversationId);
      }
      // A conversation not opened yet is loaded in full when it is; only the cursor matters here.
      if (!held) continue;
      const i = held.findIndex((x) => x.id === m.id || x.clientId === m.clientId);
      if (i >= 0) {
        if (RANK[m.status] > RANK[held[i]?.status ?? 'sent']) held[i] = m;
        else continue;
      } else {
        held.push(m);
        added.push(m);
      }
      held.sort((a, b) => a.seq - b.seq);
      this.messages.set(m.conversationId, [...held]);
      touched.add(m.conversationId);
    }
    if (touched.size) this.changed(touched);
    return added;
  }

  /** A page from GET /conversations/:id/messages: the newest page, or an older one (paging back). */
  addPage(conversationId: string, page: MessagePage, older: boolean): void {
    // The newest page replaces a chat shown from the offline copy (merged, it could leave a gap
    // of what was sent while the copy was away); what came live since the copy was put back stays.
    const saved = older ? undefined : this.restored.get(conversationId);
    const live = saved ? (this.messages.get(conversationId) ?? []).filter((m) => !saved.has(m.id)) : [];
    this.restored.delete(conversationId);
    const first = !this.messages.has(conversationId) || saved !== undefined;
    if (first) this.messages.set(conversationId, live);
    // A refetch of the newest page keeps what was paged back, and whether more lies beyond.
    if (first || older) this.hasMore.set(conversationId, page.hasMore);
    this.merge(page.messages);
    this.changed([conversationId]);
  }

  /** Delivered or read up to a seq (sent to the sender): my messages there move on, never back. */
  status(conversationId: string, status: 'delivered' | 'read', upTo: number, me: string | null): void {
    const held = this.messages.get(conversationId);
    if (!held) return;
    let changed = false;
    const next = held.map((m) => {
      if (m.seq > upTo || RANK[m.status] >= RANK[status] || (me !== null && m.senderId !== me)) return m;
      changed = true;
      return { ...m, status };
    });
    if (!changed) return;
    this.messages.set(conversationId, next);
    this.changed([conversationId]);
  }

  /** The other participant typing: on until he stops or TYPING_TIMEOUT_MS passes. */
  setTyping(conversationId: string, on: boolean): void {
    const t = this.typing.get(conversationId);
    if (t) clearTimeout(t);
    if (on) {
      this.typing.set(
        conversationId,
        setTimeout(() => {
          this.typing.delete(conversationId);
          this.changed([conversationId]);
        }, TYPING_TIMEOUT_MS),
      );
    } else this.typing.delete(conversationId);
    if (Boolean(t) !== on || on) this.changed([conversationId]);
  }

  remove(conversationId: string): void {
    this.messages.delete(conversationId);
    this.restored.delete(conversationId);
    this.outbox = this.outbox.filter((p) => p.conversationId !== conversationId);
    writeOutbox(this.outbox);
    this.changed([conversationId]);
  }

  /** Queues a send (optimistic) and tries it now. Resolves when sent, queued or refused. */
  async enqueue(p: Omit<Pending, 'state' | 'timestamp'>): Promise<void> {
    const pending: Pending = { ...p, state: 'sending', timestamp: new Date().toISOString() };
    this.outbox = [...this.outbox, pending];
    writeOutbox(this.outbox);
    this.changed([p.conversationId]);
    await this.attempt(pending);
  }

  private async attempt(p: Pending): Promise<boolean> {
    // A flush (the socket reconnecting) while the first try is on its way must not send it again:
    // a refusal would then be told twice.
    if (this.inFlight.has(p.clientId)) return true;
    this.inFlight.add(p.clientId);
    try {
      const message = await this.send(p);
      this.merge([message]);
      return true;
    } catch (e) {
      if (isTransient(e)) {
        this.mark(p.clientId, 'waiting');
        return false;
      }
      // Refused for good (a limit, a block, a deleted conversation): it will never go.
      this.outbox = this.outbox.filter((x) => x.clientId !== p.clientId);
      writeOutbox(this.outbox);
      this.changed([p.conversationId]);
      if (e instanceof ApiError) this.onRefused?.(e, p);
      return true;
    } finally {
      this.inFlight.delete(p.clientId);
    }
  }

  private mark(clientId: string, state: PendingState): void {
    const p = this.outbox.find((x) => x.clientId === clientId);
    if (!p || p.state === state) return;
    this.outbox = this.outbox.map((x) => (x.clientId === clientId ? { ...x, state } : x));
    writeOutbox(this.outbox);
    this.changed([p.conversationId]);
  }

  /** Back online or reconnected: resend what waits, in order, each with its own clientId. */
  async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (const p of [...this.outbox]) {
        if (!this.outbox.some((x) => x.clientId === p.clientId)) continue;
        this.mark(p.clientId, 'sending');
        // Still offline: the rest would fail the same way; keep the order for the next try.
        if (!(await this.attempt(p))) break;
      }
    } finally {
      this.flushing = false;
    }
  }

  get queued(): readonly Pending[] {
    return this.outbox;
  }

  /** The newest `perChat` messages of the most recently active `chats` loaded chats. */
  saved(chats: number, perChat: number): SavedChat[] {
    const last = (c: SavedChat) => c.messages[c.messages.length - 1]?.seq ?? 0;
    return [...this.messages.entries()]
      .map(([conversationId, list]) => ({
        conversationId,
        messages: list.slice(-perChat),
        hasMore: (this.hasMore.get(conversationId) ?? false) || list.length > perChat,
      }))
      .sort((a, b) => last(b) - last(a))
      .slice(0, chats);
  }

  /**
   * Shows chats from the offline copy; a chat already loaded from the server keeps what it has.
   * The catch-up cursor stays where it is: what was missed comes with each chat's newest page.
   */
  restore(chats: readonly SavedChat[]): void {
    const touched: string[] = [];
    for (const c of chats) {
      if (this.messages.has(c.conversationId)) continue;
      this.messages.set(
        c.conversationId,
        [...c.messages].sort((a, b) => a.seq - b.seq),
      );
      this.hasMore.set(c.conversationId, c.hasMore);
      this.restored.set(c.conversationId, new Set(c.messages.map((m) => m.id)));
      touched.push(c.conversationId);
    }
    if (touched.length) this.changed(touched);
  }

  /** Signing out: nothing of this user stays, queued sends included (spec section 4). */
  forget(): void {
    this.outbox = [];
    writeOutbox(this.outbox);
    this.reset();
  }

  /** For tests and sign-out. */
  reset(): void {
    for (const t of this.typing.values()) clearTimeout(t);
    const ids = [...this.messages.keys(), ...this.outbox.map((p) => p.conversationId)];
    this.messages.clear();
    this.hasMore.clear();
    this.restored.clear();
    this.typing.clear();
    this.views.clear();
    this.outbox = readOutbox();
    this.maxSeq = 0;
    this.send = defaultSend;
    this.onRefused = null;
    this.changed(ids);
  }
}

function readOutbox(): Pending[] {
  try {
    const raw = localStorage.getItem(OUTBOX_KEY);
    const list = raw ? (JSON.parse(raw) as Pending[]) : [];
    // What was in flight when the tab closed is simply waiting now.
    return Array.isArray(list) ? list.map((p) => ({ ...p, state: 'waiting' as const })) : [];
  } catch {
    return [];
  }
}

function writeOutbox(list: readonly Pending[]): void {
  try {
    if (list.length) localStorage.setItem(OUTBOX_KEY, JSON.stringify(list));
    else localStorage.removeItem(OUTBOX_KEY);
  } catch {
    // Private mode or full storage: the in-memory queue still works for this tab.
  }
}

export const messagingStore = new MessagingStore();

// Back online: what waited goes now (the live reconnect flushes too; flush runs one at a time).
if (typeof window !== 'undefined') window.addEventListener('online', () => void messagingStore.flush());
