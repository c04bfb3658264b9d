import { LIVE_CLOSE_UNAUTHORIZED, LIVE_PATH, type LiveServerEvent } from '@fmk/core';

/**
 * The live channel (one WebSocket per signed-in tab; protocol in core's live.ts).
 * The first message authenticates; then the server pushes events. Lost connections come back
 * with exponential backoff and jitter (at most 30 s). A refused token (4401) stops it: the
 * sign-out flow takes over, unless the token was refreshed meanwhile (the server also closes
 * with 4401 when a token expires), in which case it reconnects at once with the new one.
 */
export type LiveEvent = LiveServerEvent | { type: 'ping' } | { type: string; [k: string]: unknown };

/** The client's own heartbeat: a ping this often, and a connection without an answer is dead. */
export const HEARTBEAT_MS = 25_000;
export const HEARTBEAT_TIMEOUT_MS = 10_000;
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** A connection that stayed up this long was healthy: the next loss starts the backoff over. */
export const HEALTHY_AFTER_MS = 10_000;

/**
 * The wait before reconnect attempt `attempt` (0-based): 1 s, 2 s, 4 s… capped at 30 s, with
 * "equal jitter" (half fixed, half random) so that a server restart is not met by every tab at once.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 15));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function liveUrl(loc: { protocol: string; host: string } = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${LIVE_PATH}`;
}

/** The slice of WebSocket the client uses (a fake one in tests). */
export interface SocketLike {
  readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveOptions {
  url: string;
  getToken: () => string | null;
  onEvent: (e: LiveEvent) => void;
  /** Called once when the server refuses the token (close 4401). */
  onUnauthorized?: () => void;
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
  now?: () => number;
}

export class LiveClient {
  private socket: SocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private openedAt = 0;
  private stopped = true;
  /** Stopped by a 4401 with this token: a different (refreshed) token may start again. */
  private refusedToken: string | null = null;
  private usedToken: string | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private readonly createSocket: (url: string) => SocketLike;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(private readonly opts: LiveOptions) {
    this.createSocket = opts.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? Date.now;
  }

  /** How many reconnects in a row have failed (0 when connected and healthy). */
  get attempts(): number {
    return this.attempt;
  }

  get connected(): boolean {
    return this.socket !== null && this.socket.readyState === 1;
  }

  /** The server took the token ('ready') on the open socket. */
  private authed = false;

  /** Sends a message on the authenticated socket; false when there is none (the caller falls back to HTTP). */
  send(message: object): boolean {
    if (!this.authed || !this.connected || !this.socket) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.refusedToken = null;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
    this.stopHeartbeat();
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = null;
      s.onmessage = null;
      s.onerror = null;
      s.onopen = null;
      try {
        s.close(1000, 'bye');
      } catch {
        // Already closed.
      }
    }
  }

  /** Back online or back in the foreground: try now instead of waiting out the backoff. */
  nudge(): void {
    if (this.refusedToken !== null) {
      const token = this.opts.getToken();
      if (token && token !== this.refusedToken) this.start();
      return;
    }
    if (this.stopped || this.socket) return;
    this.clearTimer();
    this.connect();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private startHeartbeat(socket: SocketLike): void {
    this.stopHeartbeat();
    this.lastHeard = this.now();
    this.heartbeat = setInterval(() => {
      if (this.socket !== socket) return;
      if (this.now() - this.lastHeard > HEARTBEAT_MS + HEARTBEAT_TIMEOUT_MS) {
        // Silent for too long (a sleeping laptop, a dead proxy): start again.
        socket.onclose?.({ code: 4000 });
        try {
          socket.close(4000, 'heartbeat');
        } catch {
          // Already gone.
        }
        return;
      }
      socket.send(JSON.stringify({ type: 'ping' }));
    }, HEARTBEAT_MS);
  }

  private connect(): void {
    const token = this.opts.getToken();
    if (!token) {
      this.stop();
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.createSocket(this.opts.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.authed = false;
    this.usedToken = token;
    socket.onopen = () => {
      this.openedAt = this.now();
      socket.send(JSON.stringify({ type: 'auth', token }));
      this.startHeartbeat(socket);
    };
    socket.onmessage = (ev) => {
      // A message means the token was taken: the backoff starts over from the next loss.
      this.attempt = 0;
      this.lastHeard = this.now();
      let data: unknown;
      try {
        data = typeof ev.data === 'string' ? JSON.parse(ev.data) : null;
      } catch {
        return;
      }
      if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') return;
      const event = data as LiveEvent;
      if (event.type === 'ping') {
        socket.send(JSON.stringify({ type: 'pong' }));
        return;
      }
      if (event.type === 'pong') return;
      if (event.type === 'ready') this.authed = true;
      // 'ready' goes on: a (re)connect is when the app catches up on what it missed.
      this.opts.onEvent(event);
    };
    socket.onerror = () => {
      // A close always follows; reconnecting happens there.
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.authed = false;
      this.stopHeartbeat();
      if (ev.code === LIVE_CLOSE_UNAUTHORIZED) {
        const current = this.opts.getToken();
        if (current && current !== this.usedToken) {
          // Expired, but the app already holds a fresh token.
          this.connect();
          return;
        }
        this.stopped = true;
        this.refusedToken = this.usedToken;
        this.clearTimer();
        this.opts.onUnauthorized?.();
        return;
      }
      if (this.openedAt && this.now() - this.openedAt >= HEALTHY_AFTER_MS) this.attempt = 0;
      this.openedAt = 0;
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt, this.random);
    this.attempt += 1;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, delay);
  }
}
