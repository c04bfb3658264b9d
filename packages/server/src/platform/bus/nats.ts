import type { FastifyBaseLogger } from 'fastify';
import { connect, Events, type NatsConnection, type Subscription } from 'nats';
import { type Bus, type LiveEvent, type LiveHandler, LocalFanout } from '../bus.ts';

/**
 * Live events across instances through NATS (docs/decisions/0014), one subject per user:
 * `<prefix>.u.<userId>`. An instance subscribes to a user's subject when his first socket
 * connects to it and unsubscribes when his last one closes, so the NATS server forwards to each
 * instance only the events of the users it holds; LISTEN/NOTIFY, by contrast, sends every event
 * to every instance. There is no broadcast event today; one would get a subject of its own
 * beside `u` (`<prefix>.all.<topic>`), never a wildcard over the users' subjects.
 *
 * Like PgBus, a publish delivers to this instance's own sockets at once and sends on NATS for the
 * others; the connection is opened with `noEcho` so the server does not hand it back.
 * Delivery is at most once: an instance that was cut off misses what was published meanwhile
 * (clients catch up by message seq when they reconnect). The client reconnects forever and sends
 * its subscriptions again on each reconnect; what this instance publishes while it knows the link
 * is down is held here (the client library drops it) and sent once the link is back.
 */
export interface NatsBusOptions {
  /** nats:// URLs, several for a cluster. */
  servers: readonly string[];
  /** The subjects' first tokens: deployments (and test suites) sharing one NATS server keep apart by it. */
  prefix: string;
  /** The connection's name, shown by the NATS server's monitoring. */
  name?: string;
  log?: FastifyBaseLogger;
  /** Reconnect pause; short in tests. */
  reconnectTimeWaitMs?: number;
}

/** A user id must be one subject token: a dot or a wildcard in it would address other subjects. */
const SUBJECT_TOKEN = /^[A-Za-z0-9_-]+$/;
/** Publishes held while the link is down, at most: past it the oldest go (clients catch up by seq). */
const MAX_HELD = 10_000;
/** How long close() lets the drain take before it closes the connection outright. */
const DRAIN_TIMEOUT_MS = 5000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The URLs without their credentials, for messages. */
const shown = (servers: readonly string[]) => servers.map((u) => u.replace(/\/\/[^@/]*@/, '//')).join(', ');

export class NatsBus implements Bus {
  private readonly fanout = new LocalFanout();
  private readonly subs = new Map<string, Subscription>();
  private closing = false;
  private up = true;
  /** Published while the link was down, in order: sent when it is back. */
  private held: Array<[string, Uint8Array]> = [];
  private dropped = 0;
  /** Messages this instance took from NATS: tests and the benchmark read it. */
  received = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly opts: NatsBusOptions,
  ) {
    void this.watch();
  }

  /** Connects (rejecting at once, with the URL, when no server answers) and returns the bus. */
  static async create(opts: NatsBusOptions): Promise<NatsBus> {
    if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(opts.prefix)) throw new Error(`Bad bus subject prefix: ${opts.prefix}`);
    let nc: NatsConnection;
    try {
      nc = await connect({
        servers: [...opts.servers],
        name: opts.name ?? 'fmk',
        noEcho: true,
        // Once connected, never give up: an instance without its bus would hold sockets that hear nothing.
        maxReconnectAttempts: -1,
        reconnectTimeWait: opts.reconnectTimeWaitMs ?? 500,
        reconnectJitter: 200,
        // A dead link is noticed within ~30 s even when no TCP error arrives.
        pingInterval: 10_000,
        maxPingOut: 3,
        timeout: 5000,
      });
    } catch (err) {
      throw new Error(`Cannot reach NATS at ${shown(opts.servers)} (BUS_URL): ${(err as Error).message}`, { cause: err });
    }
    return new NatsBus(nc, opts);
  }

  private subject(userId: string): string {
    return `${this.opts.prefix}.u.${userId}`;
  }

  private async watch(): Promise<void> {
    const log = this.opts.log;
    void this.nc.closed().then((err) => {
      if (err && !this.closing) log?.error({ err }, 'bus: NATS connection closed');
    });
    for await (const s of this.nc.status()) {
      if (s.type === Events.Disconnect) {
        this.up = false;
        log?.warn({ server: s.data }, 'bus: NATS connection lost, reconnecting');
      } else if (s.type === Events.Reconnect) {
        this.up = true;
        this.sendHeld();
        log?.info({ server: s.data, users: this.subs.size }, 'bus: NATS reconnected, subscriptions sent again');
      } else if (s.type === Events.Error) log?.warn({ err: s.data }, 'bus: NATS error');
      else if (s.type === Events.LDM) log?.warn({ server: s.data }, 'bus: NATS server entering lame duck mode');
    }
  }

  private sendHeld(): void {
    const held = this.held;
    this.held = [];
    if (this.dropped > 0) this.opts.log?.warn({ dropped: this.dropped }, 'bus: events dropped while NATS was away');
    this.dropped = 0;
    for (const [subject, data] of held) this.send(subject, data);
  }

  private send(subject: string, data: Uint8Array): void {
    if (!this.up) {
      if (this.held.push([subject, data]) > MAX_HELD) {
        this.held.shift();
        this.dropped++;
      }
      return;
    }
    try {
      // The write this event follows has committed, so a failure is logged, never thrown at the request.
      this.nc.publish(subject, data);
    } catch (err) {
      this.opts.log?.error({ err }, 'bus publish failed');
    }
  }

  /** Whether the connection is up (false while it reconnects, and once closed). */
  get connected(): boolean {
    return this.up && !this.nc.isClosed();
  }

  /** The users whose subject this instance listens to. */
  users(): string[] {
    return [...this.subs.keys()];
  }

  /** Resolves when the server has processed everything sent so far (subscriptions included). */
  async flush(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.flush();
  }

  publish(userIds: readonly string[], event: LiveEvent): Promise<void> {
    return this.publishBatch([[userIds, event]]);
  }

  async publishBatch(batch: ReadonlyArray<readonly [readonly string[], LiveEvent]>): Promise<void> {
    const log = this.opts.log;
    for (const [to, event] of batch) {
      if (to.length === 0) continue;
      this.fanout.deliver(to, event, log);
      if (this.nc.isClosed()) {
        log?.error({ type: event.type }, 'bus publish after close');
        continue;
      }
      let data = encoder.encode(JSON.stringify(event));
      // Past the server's limit (1 MB by default) the clients reload what changed instead.
      if (data.length > (this.nc.info?.max_payload ?? 1024 * 1024))
        data = encoder.encode(JSON.stringify({ type: 'refetch', of: event.type }));
      for (const userId of new Set(to)) {
        if (!SUBJECT_TOKEN.test(userId)) {
          log?.warn({ userId }, 'bus: user id is not a NATS subject token');
          continue;
        }
        this.send(this.subject(userId), data);
      }
    }
  }

  subscribe(userId: string, handler: LiveHandler): () => void {
    const off = this.fanout.subscribe(userId, handler);
    if (!this.subs.has(userId) && !this.closing && !this.nc.isClosed()) {
      if (SUBJECT_TOKEN.test(userId)) {
        const sub = this.nc.subscribe(this.subject(userId), {
          callback: (err, msg) => {
            if (err) {
              this.opts.log?.warn({ err }, 'bus: NATS subscription error');
              return;
            }
            this.received++;
            let event: LiveEvent;
            try {
              event = JSON.parse(decoder.decode(msg.data)) as LiveEvent;
            } catch (e) {
              this.opts.log?.warn({ err: e }, 'bad bus payload');
              return;
            }
            this.fanout.deliver([userId], event, this.opts.log);
          },
        });
        this.subs.set(userId, sub);
      } else this.opts.log?.warn({ userId }, 'bus: user id is not a NATS subject token');
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      off();
      if (this.fanout.has(userId)) return;
      const sub = this.subs.get(userId);
      this.subs.delete(userId);
      if (sub && !this.nc.isClosed()) sub.unsubscribe();
    };
  }

  /**
   * Drains: the messages already received are delivered, what was published is flushed to the
   * server, then the connection closes. A server that does not answer gets DRAIN_TIMEOUT_MS.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.nc.isClosed()) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), DRAIN_TIMEOUT_MS);
    });
    const drained = this.nc.drain().then(
      () => 'drained' as const,
      (err: unknown) => {
        this.opts.log?.warn({ err }, 'bus: NATS drain failed');
        return 'failed' as const;
      },
    );
    const outcome = await Promise.race([drained, timeout]);
    clearTimeout(timer);
    if (outcome !== 'drained' && !this.nc.isClosed()) await this.nc.close();
  }
}
