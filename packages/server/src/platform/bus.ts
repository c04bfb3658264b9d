import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Db } from '../db/index.ts';
import { notifyAll } from './bus/repo.ts';

/**
 * Live events for users, across server instances (docs/decisions/0009). A service publishes
 * to user ids after its transaction commits, never before; every instance delivers to
 * the sockets it holds for those users. Events are small (ids and a few fields): clients
 * refetch anything larger.
 */
export interface LiveEvent {
  type: string;
  [field: string]: unknown;
}
export type LiveHandler = (event: LiveEvent) => void;

/**
 * Internal, never sent to a client: a session ended (signed out), so its live sockets close,
 * wherever they are connected. `sessionId` names the session.
 */
export const SESSION_ENDED = 'session-ended';

export interface Bus {
  /** Delivers to every subscriber of these users, on every instance. Never throws: logs instead. */
  publish(userIds: readonly string[], event: LiveEvent): Promise<void>;
  /** Several publishes in order, in one round trip where the transport allows. */
  publishBatch(batch: ReadonlyArray<readonly [readonly string[], LiveEvent]>): Promise<void>;
  /** Subscribes to one user's events on this instance; returns the unsubscribe function. */
  subscribe(userId: string, handler: LiveHandler): () => void;
  close(): Promise<void>;
  /** For the health screen: the transport, whether it is connected, and this instance's subscribers. */
  state?(): BusState;
}

export interface BusState {
  kind: 'local' | 'postgres';
  connected: boolean;
  subscribers: number;
  /** Other instances heard on the channel (LISTEN/NOTIFY only). */
  peers?: number;
}

/** The subscribers held by this instance. */
export class LocalFanout {
  private readonly handlers = new Map<string, Set<LiveHandler>>();

  /** Every subscription held (one per open live socket). */
  size(): number {
    let n = 0;
    for (const s of this.handlers.values()) n += s.size;
    return n;
  }

  subscribe(userId: string, handler: LiveHandler): () => void {
    let set = this.handlers.get(userId);
    if (!set) {
      set = new Set();
      this.handlers.set(userId, set);
    }
    set.add(handler);
    return () => {
      const s = this.handlers.get(userId);
      if (!s) return;
      s.delete(handler);
      if (s.size === 0) this.handlers.delete(userId);
    };
  }

  /** Whether this instance holds a subscriber of the user. */
  has(userId: string): boolean {
    return this.handlers.has(userId);
  }

  deliver(userIds: readonly string[], event: LiveEvent, log?: FastifyBaseLogger): void {
    for (const id of userIds) {
      for (const h of this.handlers.get(id) ?? []) {
        try {
          h(event);
        } catch (err) {
          log?.warn({ err }, 'live handler failed');
        }
      }
    }
  }
}

/** One process (the embedded PGlite database): delivery is a function call. */
export class LocalBus implements Bus {
  private readonly fanout = new LocalFanout();
  async publish(userIds: readonly string[], event: LiveEvent): Promise<void> {
    this.fanout.deliver(userIds, event);
  }
  async publishBatch(batch: ReadonlyArray<readonly [readonly string[], LiveEvent]>): Promise<void> {
    for (const [to, ev] of batch) this.fanout.deliver(to, ev);
  }
  subscribe(userId: string, handler: LiveHandler): () => void {
    return this.fanout.subscribe(userId, handler);
  }
  async close(): Promise<void> {}
  state(): BusState {
    return { kind: 'local', connected: true, subscribers: this.fanout.size() };
  }
}

/** PostgreSQL's NOTIFY payload must be shorter than 8000 bytes; keep a margin. */
export const MAX_NOTIFY_BYTES = 7900;
/** Recipients per NOTIFY: 100 uuids are ~4 KB, leaving room for the event. */
const RECIPIENTS_PER_NOTIFY = 100;

interface Envelope {
  /** The publishing instance, which has already delivered locally. */
  src: string;
  to: readonly string[];
  event: LiveEvent;
}

/**
 * How instances on one channel learn of each other (PgBus): `hello` when an instance starts
 * listening (each peer answers `here`), `here` again every ANNOUNCE_MS, `bye` when it closes.
 */
interface Announcement {
  src: string;
  ctl: 'hello' | 'here' | 'bye';
}

/** Every instance says it is here this often. */
const ANNOUNCE_MS = 30_000;
/** A peer not heard from for this long is gone (it stopped without its bye). */
const PEER_EXPIRES_MS = 3 * ANNOUNCE_MS + 10_000;
/**
 * For this long after its listener (re)connects, an instance NOTIFYs whether or not it knows a
 * peer: the peers' answers to its hello are still on their way.
 */
const PEER_GRACE_MS = 2_000;

/**
 * The envelopes to NOTIFY for one publish: recipients in chunks, and an event too large for a
 * payload replaced by `{type: 'refetch', of}` so that clients reload what changed.
 */
export function envelopes(src: string, userIds: readonly string[], event: LiveEvent): string[] {
  const out: string[] = [];
  for (let i = 0; i < userIds.length; i += RECIPIENTS_PER_NOTIFY) {
    const to = userIds.slice(i, i + RECIPIENTS_PER_NOTIFY);
    let payload = JSON.stringify({ src, to, event } satisfies Envelope);
    if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
      payload = JSON.stringify({ src, to, event: { type: 'refetch', of: event.type } } satisfies Envelope);
    }
    out.push(payload);
  }
  return out;
}

export interface PgBusOptions {
  url: string;
  /** The database schema of this deployment; it scopes the channel (tests share one database). */
  schema?: string | undefined;
  /** Publishes go through the app's pool. */
  db: Db;
  log?: FastifyBaseLogger;
  /** PEER_GRACE_MS; tests shorten it. */
  peerGraceMs?: number;
}

/**
 * Across instances through PostgreSQL LISTEN/NOTIFY: one dedicated connection per instance
 * LISTENs on the channel; a publish delivers to local sockets at once and NOTIFYs the others
 * with `{src, to, event}`. NOTIFY is fire-and-forget: an instance that was disconnected misses
 * events (clients catch up by message seq after a reconnect); the listener reconnects with backoff.
 *
 * An instance that knows no peer on its channel sends no NOTIFY at all (the common deployment,
 * one instance on PostgreSQL: each event otherwise cost a round trip and a commit that nobody
 * read). Peers announce themselves (Announcement): a new listener says hello and every peer
 * answers, so a starting instance is known before it can hold a socket, and during PEER_GRACE_MS
 * after it (re)connects it NOTIFYs regardless, while the answers come. A peer that vanished
 * without its bye costs NOTIFYs until it expires, as before this existed.
 */
export class PgBus implements Bus {
  private readonly fanout = new LocalFanout();
  private readonly id = randomUUID();
  private readonly channel: string;
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = 250;
  /** Envelopes of other instances this one took (every one, whoever it is for): the benchmark reads it. */
  received = 0;
  /** NOTIFY statements this instance sent for events: tests read it. */
  notified = 0;
  /** Other instances on the channel: when each was last heard from. */
  private readonly peers = new Map<string, number>();
  /** Until when NOTIFYs go out whatever the peers (PEER_GRACE_MS). */
  private graceUntil = 0;
  private announcing: NodeJS.Timeout | null = null;

  private constructor(private readonly opts: PgBusOptions) {
    const suffix = opts.schema ? `_${opts.schema}` : '';
    this.channel = `fmk_events${suffix}`.toLowerCase();
    if (!/^[a-z0-9_]{1,63}$/.test(this.channel)) throw new Error(`Bad bus channel name: ${this.channel}`);
  }

  static async create(opts: PgBusOptions): Promise<PgBus> {
    const bus = new PgBus(opts);
    await bus.listen();
    bus.announcing = setInterval(() => bus.announce('here'), ANNOUNCE_MS);
    bus.announcing.unref();
    return bus;
  }

  /** Says hello, here or bye to the channel's other instances; a failure is logged (the next announcement repeats it). */
  private async announce(ctl: Announcement['ctl']): Promise<void> {
    try {
      await notifyAll(this.opts.db, this.channel, [JSON.stringify({ src: this.id, ctl } satisfies Announcement)]);
    } catch (err) {
      this.opts.log?.warn({ err }, 'bus announcement failed');
    }
  }

  private heard(a: Announcement): void {
    if (a.ctl === 'bye') this.peers.delete(a.src);
    else this.peers.set(a.src, Date.now());
    if (a.ctl === 'hello') void this.announce('here');
  }

  /** The peers heard from within PEER_EXPIRES_MS (the others are dropped). */
  private livePeers(): number {
    const now = Date.now();
    for (const [id, at] of this.peers) if (now - at > PEER_EXPIRES_MS) this.peers.delete(id);
    return this.peers.size;
  }

  /** Whether an event must go out on the channel: a peer may be listening. */
  private anyPeer(): boolean {
    return Date.now() < this.graceUntil || this.livePeers() > 0;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.url });
    client.on('notification', (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      try {
        const env = JSON.parse(msg.payload) as Envelope | Announcement;
        if (env.src === this.id) return;
        if ('ctl' in env) return this.heard(env);
        this.received++;
        this.fanout.deliver(env.to, env.event, this.opts.log);
      } catch (err) {
        this.opts.log?.warn({ err }, 'bad bus payload');
      }
    });
    client.on('error', (err) => {
      this.opts.log?.warn({ err }, 'bus listener connection lost');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    await client.connect();
    await client.query(`LISTEN ${this.channel}`);
    this.client = client;
    this.retryMs = 250;
    this.graceUntil = Date.now() + (this.opts.peerGraceMs ?? PEER_GRACE_MS);
    await this.announce('hello');
  }

  private reconnect(dead: pg.Client): void {
    if (this.closed || this.client !== dead) return;
    this.client = null;
    dead.removeAllListeners('end');
    void dead.end().catch(() => {});
    const attempt = () => {
      if (this.closed) return;
      this.listen().catch((err: unknown) => {
        this.opts.log?.warn({ err }, 'bus listener reconnect failed');
        this.retryMs = Math.min(this.retryMs * 2, 10_000);
        setTimeout(attempt, this.retryMs).unref();
      });
    };
    setTimeout(attempt, this.retryMs).unref();
  }

  publish(userIds: readonly string[], event: LiveEvent): Promise<void> {
    return this.publishBatch([[userIds, event]]);
  }

  async publishBatch(batch: ReadonlyArray<readonly [readonly string[], LiveEvent]>): Promise<void> {
    const payloads: string[] = [];
    for (const [to, ev] of batch) {
      if (to.length === 0) continue;
      this.fanout.deliver(to, ev, this.opts.log);
      payloads.push(...envelopes(this.id, to, ev));
    }
    if (payloads.length === 0 || !this.anyPeer()) return;
    try {
      this.notified++;
      await notifyAll(this.opts.db, this.channel, payloads);
    } catch (err) {
      // The write this event follows has committed; failing the request would only make the
      // client retry it. Clients catch up on reconnect.
      this.opts.log?.error({ err }, 'bus publish failed');
    }
  }

  subscribe(userId: string, handler: LiveHandler): () => void {
    return this.fanout.subscribe(userId, handler);
  }

  state(): BusState {
    return {
      kind: 'postgres',
      connected: this.client !== null && !this.closed,
      subscribers: this.fanout.size(),
      peers: this.livePeers(),
    };
  }
  async close(): Promise<void> {
    if (this.announcing) clearInterval(this.announcing);
    if (!this.closed && this.client) await this.announce('bye');
    this.closed = true;
    const c = this.client;
    this.client = null;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
    }
  }
}

/**
 * Runs `fn` in a transaction and publishes the events it queued only after the commit
 * so that a rolled-back write never reaches a socket.
 */
export async function withEvents<T>(
  db: Db,
  bus: Bus,
  fn: (trx: Db, emit: (userIds: readonly string[], event: LiveEvent) => void) => Promise<T>,
): Promise<T> {
  const queued: Array<[readonly string[], LiveEvent]> = [];
  const result = await db.transaction().execute((trx) => fn(trx, (to, ev) => queued.push([to, ev])));
  if (queued.length > 0) await bus.publishBatch(queued);
  return result;
}
