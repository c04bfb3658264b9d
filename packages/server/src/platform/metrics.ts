import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';

/** A call slower than this counts as slow (spec: "slow API calls (above 1 s)"). */
export const SLOW_CALL_MS = 1000;
/** How far back the request figures look: fifteen one-minute buckets. */
export const METRICS_WINDOW_MINUTES = 15;
const BUCKET_MS = 60_000;
/** At most this many distinct slow routes are kept per minute, so a flood of odd URLs cannot grow memory. */
const SLOW_ROUTES_PER_BUCKET = 50;

interface SlowRoute {
  count: number;
  maxMs: number;
}

/** One minute of API calls. Counters only; the map is made for the first slow call of the minute. */
interface Bucket {
  minute: number;
  total: number;
  errors: number;
  slow: number;
  slowRoutes: Map<string, SlowRoute> | null;
}

export interface RequestFigures {
  windowMinutes: number;
  total: number;
  errors: number;
  slow: number;
  /** The routes with slow calls in the window, slowest first. */
  slowRoutes: { route: string; count: number; maxMs: number }[];
}

export interface EventLoopFigures {
  meanMs: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * The server's own request figures over a rolling window. Recording a call touches one bucket's
 * counters (a ring of fifteen, reused minute after minute); only a slow call allocates (its
 * route's entry), so the hook costs next to nothing on the hot path.
 */
export class RequestMetrics {
  private readonly ring: Bucket[] = Array.from({ length: METRICS_WINDOW_MINUTES }, () => ({
    minute: -1,
    total: 0,
    errors: 0,
    slow: 0,
    slowRoutes: null,
  }));

  constructor(private readonly nowMs: () => number = Date.now) {}

  private bucket(minute: number): Bucket {
    const b = this.ring[minute % METRICS_WINDOW_MINUTES]!;
    if (b.minute !== minute) {
      b.minute = minute;
      b.total = 0;
      b.errors = 0;
      b.slow = 0;
      b.slowRoutes = null;
    }
    return b;
  }

  record(route: string, status: number, ms: number): void {
    const b = this.bucket(Math.floor(this.nowMs() / BUCKET_MS));
    b.total++;
    if (status >= 500) b.errors++;
    if (ms <= SLOW_CALL_MS) return;
    b.slow++;
    b.slowRoutes ??= new Map();
    const r = b.slowRoutes.get(route);
    if (r) {
      r.count++;
      if (ms > r.maxMs) r.maxMs = ms;
    } else if (b.slowRoutes.size < SLOW_ROUTES_PER_BUCKET) {
      b.slowRoutes.set(route, { count: 1, maxMs: ms });
    }
  }

  figures(): RequestFigures {
    const now = Math.floor(this.nowMs() / BUCKET_MS);
    const out: RequestFigures = { windowMinutes: METRICS_WINDOW_MINUTES, total: 0, errors: 0, slow: 0, slowRoutes: [] };
    const slow = new Map<string, SlowRoute>();
    for (const b of this.ring) {
      if (b.minute < 0 || now - b.minute >= METRICS_WINDOW_MINUTES) continue;
      out.total += b.total;
      out.errors += b.errors;
      out.slow += b.slow;
      for (const [route, r] of b.slowRoutes ?? []) {
        const acc = slow.get(route) ?? { count: 0, maxMs: 0 };
        acc.count += r.count;
        acc.maxMs = Math.max(acc.maxMs, r.maxMs);
        slow.set(route, acc);
      }
    }
    out.slowRoutes = [...slow]
      .map(([route, r]) => ({ route, count: r.count, maxMs: Math.round(r.maxMs) }))
      .sort((a, b) => b.maxMs - a.maxMs)
      .slice(0, 10);
    return out;
  }
}

/** The process's own figures: requests (rolling window) and event-loop delay (since the last look). */
export class ServerMetrics {
  readonly requests: RequestMetrics;
  private readonly loop: IntervalHistogram;

  constructor(nowMs?: () => number) {
    this.requests = new RequestMetrics(nowMs);
    this.loop = monitorEventLoopDelay({ resolution: 20 });
    this.loop.enable();
  }

  /** Event-loop delay since the previous call (the histogram starts again after each look). */
  eventLoop(): EventLoopFigures {
    const ms = (ns: number) => Math.round((Number.isFinite(ns) ? ns : 0) / 1e4) / 100;
    const out = { meanMs: ms(this.loop.mean), p99Ms: ms(this.loop.percentile(99)), maxMs: ms(this.loop.max) };
    this.loop.reset();
    return out;
  }

  close(): void {
    this.loop.disable();
  }
}

/**
 * Counts every API answer into the metrics: its route pattern (not the URL, so ids do not make
 * new keys), status and time. The live channel's upgrade is left out: its "answer" lasts as long
 * as the socket.
 */
export function installMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  app.addHook('onResponse', (req, reply, done) => {
    if (req.url.startsWith('/api/') && !req.ws) {
      metrics.requests.record(`${req.method} ${req.routeOptions.url ?? '(no route)'}`, reply.statusCode, reply.elapsedTime);
    }
    done();
  });
  app.addHook('onClose', async () => metrics.close());
}
