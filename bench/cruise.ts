import { fork } from 'node:child_process';
import path from 'node:path';
import { BENCH_DB, dbUrl, ensureDatabase } from './game.ts';
import { load, summary, waitFor } from './load.ts';

/**
 * GET /api/v1/cruise/nearby under load (issue 7): p50/p95 at 32 concurrent clients against the
 * real app (its own process, bench/cruise-app.ts) with `active` users cruising in one city of a
 * `users`-strong world, and the same SQL straight through the driver with 32 concurrent clients
 * in the same run. Data lives in database `fmk_bench`, schema `cruise_bench`, reused between runs.
 * Same result shape as bench/grid.ts.
 */
export interface CruiseBenchResult {
  name: string;
  unit: string;
  samples: number[];
  median: number;
  database: 'postgres';
  users: number;
  activeInCity: number;
  concurrency: number;
  requests: number;
  endpoint: { p50: number; p95: number; p99: number; rps: number };
  rawSql: { p50: number; p95: number; p99: number; rps: number };
  ratioP95: number;
  ratioP50: number;
  /** Cruisers per answer (the page is 50 at most): the query did real work. */
  meanRows: number;
  errors: number;
  generatedSeconds: number | null;
}

export async function cruiseBench(opts: {
  users: number;
  active: number;
  requests: number;
  concurrency?: number;
}): Promise<CruiseBenchResult> {
  const concurrency = opts.concurrency ?? 32;
  await ensureDatabase();
  const child = fork(path.join(import.meta.dirname, 'cruise-app.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      CRUISE_BENCH_USERS: String(opts.users),
      CRUISE_BENCH_ACTIVE: String(opts.active),
      CRUISE_BENCH_URL: dbUrl(BENCH_DB),
      CRUISE_BENCH_SCHEMA: `cruise_bench_${opts.users}`,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = await waitFor<{ port: number; auth: string[]; generatedSeconds: number | null }>(child, 'ready', 'cruise');
    if (ready.generatedSeconds !== null)
      console.log(`cruise bench: generated ${opts.users} users in ${ready.generatedSeconds.toFixed(0)} s`);
    // Warm-up: every viewer twice (caches, JIT, connection pool).
    await load(ready.port, '/api/v1/cruise/nearby', ready.auth, ready.auth.length * 2, concurrency);
    const endpoint = await load(ready.port, '/api/v1/cruise/nearby', ready.auth, opts.requests, concurrency);
    child.send({ cmd: 'raw', count: opts.requests, concurrency });
    const raw = await waitFor<{ raw: number[]; seconds: number; meanRows: number }>(child, 'raw', 'cruise');
    const e = summary(endpoint.lat, endpoint.seconds);
    const r = summary(raw.raw, raw.seconds);
    if (process.env.CRUISE_BENCH_EXPLAIN) {
      child.send({ cmd: 'explain' });
      console.log((await waitFor<{ explain: string }>(child, 'explain', 'cruise')).explain);
    }
    return {
      name: `GET /api/v1/cruise/nearby p95 at ${concurrency} concurrent clients, postgres, ${opts.users} users, ${opts.active} cruising in one city`,
      unit: 'ms',
      samples: [e.p95],
      median: e.p95,
      database: 'postgres',
      users: opts.users,
      activeInCity: opts.active,
      concurrency,
      requests: opts.requests,
      endpoint: e,
      rawSql: r,
      ratioP95: Math.round((e.p95 / r.p95) * 100) / 100,
      ratioP50: Math.round((e.p50 / r.p50) * 100) / 100,
      meanRows: Math.round(raw.meanRows * 10) / 10,
      errors: endpoint.errors,
      generatedSeconds: ready.generatedSeconds,
    };
  } finally {
    if (child.connected && child.exitCode === null) {
      child.send({ cmd: 'stop' });
      await new Promise((r) => child.once('exit', r));
    }
  }
}

/**
 * `tsx bench/cruise.ts [--quick]`: 1 M users with 50 k cruising in one city (100 k / 5 k with
 * --quick); CRUISE_BENCH_REQUESTS and CRUISE_BENCH_CONCURRENCY override the load.
 */
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const quick = process.argv.includes('--quick');
  const result = await cruiseBench({
    users: quick ? 100_000 : 1_000_000,
    active: quick ? 5_000 : 50_000,
    requests: Number(process.env.CRUISE_BENCH_REQUESTS ?? (quick ? 2000 : 5000)),
    concurrency: Number(process.env.CRUISE_BENCH_CONCURRENCY ?? 32),
  });
  console.log(JSON.stringify([result], null, 2));
}
