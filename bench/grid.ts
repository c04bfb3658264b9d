import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BENCH_DB, dbUrl, ensureDatabase } from './game.ts';
import { load, summary, waitFor } from './load.ts';

/**
 * GET /api/v1/grid under load (issue 4): p50/p95 at 32 concurrent clients against the real app
 * (its own process, bench/grid-app.ts), and the same SQL straight through the driver with 32
 * concurrent clients in the same run. PostgreSQL at 1 M users (100 k with --quick), and PGlite at
 * 100 k. Data lives in database `fmk_bench`, schema `grid_bench_<users>`, and is reused between runs.
 */
export interface GridBenchResult {
  name: string;
  unit: string;
  samples: number[];
  median: number;
  database: 'postgres' | 'pglite';
  users: number;
  concurrency: number;
  requests: number;
  endpoint: { p50: number; p95: number; p99: number; rps: number };
  rawSql: { p50: number; p95: number; p99: number; rps: number };
  ratioP95: number;
  ratioP50: number;
  errors: number;
  generatedSeconds: number | null;
}

export async function gridBench(opts: {
  database: 'postgres' | 'pglite';
  users: number;
  requests: number;
  concurrency?: number;
}): Promise<GridBenchResult> {
  const concurrency = opts.concurrency ?? 32;
  if (opts.database === 'postgres') await ensureDatabase();
  const dataDir = path.join(tmpdir(), `fmk-grid-bench-pglite-${opts.users}`);
  if (opts.database === 'pglite') mkdirSync(dataDir, { recursive: true });
  const child = fork(path.join(import.meta.dirname, 'grid-app.ts'), [], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    env: {
      ...process.env,
      GRID_BENCH_KIND: opts.database,
      GRID_BENCH_USERS: String(opts.users),
      GRID_BENCH_URL: dbUrl(BENCH_DB),
      GRID_BENCH_SCHEMA: `grid_bench_${opts.users}`,
      GRID_BENCH_DATADIR: dataDir,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = await waitFor<{ port: number; auth: string[]; generatedSeconds: number | null }>(child, 'ready', 'grid');
    if (ready.generatedSeconds !== null)
      console.log(`grid bench: generated ${opts.users} users on ${opts.database} in ${ready.generatedSeconds.toFixed(0)} s`);
    // Warm-up: every viewer's first visit of the day (writes his clickable set), then caches.
    await load(ready.port, '/api/v1/grid', ready.auth, ready.auth.length * 2, concurrency);
    const endpoint = await load(ready.port, '/api/v1/grid', ready.auth, opts.requests, concurrency);
    child.send({ cmd: 'raw', count: opts.requests, concurrency });
    const raw = await waitFor<{ raw: number[]; seconds: number }>(child, 'raw', 'grid');
    const e = summary(endpoint.lat, endpoint.seconds);
    const r = summary(raw.raw, raw.seconds);
    if (process.env.GRID_BENCH_EXPLAIN && opts.database === 'postgres') {
      child.send({ cmd: 'explain' });
      console.log((await waitFor<{ explain: string }>(child, 'explain', 'grid')).explain);
    }
    return {
      name: `GET /api/v1/grid p95 at ${concurrency} concurrent clients, ${opts.database}, ${opts.users} users`,
      unit: 'ms',
      samples: [e.p95],
      median: e.p95,
      database: opts.database,
      users: opts.users,
      concurrency,
      requests: opts.requests,
      endpoint: e,
      rawSql: r,
      ratioP95: Math.round((e.p95 / r.p95) * 100) / 100,
      ratioP50: Math.round((e.p50 / r.p50) * 100) / 100,
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

/** `tsx bench/grid.ts [--quick] [--pglite-only]`: runs the grid benchmarks alone and prints them. */
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const quick = process.argv.includes('--quick');
  const results = [
    await gridBench({
      database: 'postgres',
      users: quick ? 100_000 : 1_000_000,
      requests: Number(process.env.GRID_BENCH_REQUESTS ?? (quick ? 2000 : 5000)),
      concurrency: Number(process.env.GRID_BENCH_CONCURRENCY ?? 32),
    }),
  ];
  console.log(JSON.stringify(results, null, 2));
}
