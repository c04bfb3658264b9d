import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { brotliDecompressSync } from 'node:zlib';

/** Shared by the endpoint-vs-raw-SQL benchmarks (grid, cruise): percentiles, IPC, closed-loop load. */

export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function summary(lat: number[], seconds: number) {
  const s = [...lat].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(pct(s, 50)), p95: r(pct(s, 95)), p99: r(pct(s, 99)), rps: Math.round(lat.length / seconds) };
}

/** The next IPC message from the bench's server process that carries `key`. */
export function waitFor<T>(child: ChildProcess, key: string, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMsg = (m: Record<string, unknown>) => {
      if (key in m) {
        child.off('message', onMsg);
        resolve(m as T);
      }
    };
    child.on('message', onMsg);
    child.once('exit', (code) => reject(new Error(`${what} bench server exited (${code})`)));
  });
}

/**
 * `count` GETs of `path` by `concurrency` keep-alive clients (node:http, as bench/http.ts: the
 * client shares the machine's two cores with the server, and fetch costs it several times more),
 * each viewer's token in turn, asking for brotli as a phone does. An answer that is not a 200 whose
 * JSON has `"items"` is an error.
 */
export async function load(port: number, path: string, auth: string[], count: number, concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const lat: number[] = [];
  let errors = 0;
  let next = 0;
  const one = (authorization: string) =>
    new Promise<void>((resolve) => {
      const s = performance.now();
      const req = http.request(
        { host: '127.0.0.1', port, path, agent, headers: { authorization, 'accept-encoding': 'br' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            lat.push(performance.now() - s);
            const raw = Buffer.concat(chunks);
            const body = (res.headers['content-encoding'] === 'br' ? brotliDecompressSync(raw) : raw).toString();
            if (res.statusCode !== 200 || !body.includes('"items"')) errors += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end();
    });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const k = next++;
        if (k >= count) return;
        await one(auth[k % auth.length]!);
      }
    }),
  );
  agent.destroy();
  return { lat, seconds: (performance.now() - t0) / 1000, errors };
}

type Summary = ReturnType<typeof summary>;

/** The figures both benchmarks report, in their result's own words. */
export interface EndpointVsSqlFigures {
  unit: 'ms';
  samples: number[];
  median: number;
  concurrency: number;
  requests: number;
  endpoint: Summary;
  rawSql: Summary;
  ratioP95: number;
  ratioP50: number;
  errors: number;
  generatedSeconds: number | null;
  /** The app's processes serving the endpoint (bench/app-kit.ts serveForViewers). */
  instances: number;
}

/**
 * One endpoint-vs-raw-SQL run against its server process (grid-app.ts, cruise-app.ts): waits for
 * it, warms up (every viewer twice on each instance, twice over: his first visit of the day, caches, JIT, the pool), measures
 * `requests` GETs of `path` at `concurrency`, then has the server run the endpoint's SQL as many
 * times through the driver; prints the plan when `explain`. The server is stopped however it ends.
 */
export async function endpointVsSql<Raw extends { raw: number[]; seconds: number }>(
  child: ChildProcess,
  what: string,
  o: { path: string; requests: number; concurrency: number; explain: boolean; generated: (seconds: number) => void },
): Promise<{ raw: Raw; figures: EndpointVsSqlFigures }> {
  try {
    const ready = await waitFor<{ port: number; auth: string[]; generatedSeconds: number | null; instances?: number }>(
      child,
      'ready',
      what,
    );
    if (ready.generatedSeconds !== null) o.generated(ready.generatedSeconds);
    // Every viewer twice on every instance (connections are handed to instances in turn).
    await load(ready.port, o.path, ready.auth, ready.auth.length * 2 * (ready.instances ?? 1) * 2, o.concurrency);
    const endpoint = await load(ready.port, o.path, ready.auth, o.requests, o.concurrency);
    child.send({ cmd: 'raw', count: o.requests, concurrency: o.concurrency });
    const raw = await waitFor<Raw>(child, 'raw', what);
    const e = summary(endpoint.lat, endpoint.seconds);
    const r = summary(raw.raw, raw.seconds);
    if (o.explain) {
      child.send({ cmd: 'explain' });
      console.log((await waitFor<{ explain: string }>(child, 'explain', what)).explain);
    }
    return {
      raw,
      figures: {
        unit: 'ms',
        samples: [e.p95],
        median: e.p95,
        concurrency: o.concurrency,
        requests: o.requests,
        endpoint: e,
        rawSql: r,
        ratioP95: Math.round((e.p95 / r.p95) * 100) / 100,
        ratioP50: Math.round((e.p50 / r.p50) * 100) / 100,
        errors: endpoint.errors,
        generatedSeconds: ready.generatedSeconds,
        instances: ready.instances ?? 1,
      },
    };
  } finally {
    if (child.connected && child.exitCode === null) {
      child.send({ cmd: 'stop' });
      await new Promise((r) => child.once('exit', r));
    }
  }
}
