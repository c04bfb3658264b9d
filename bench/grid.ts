import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BENCH_DB, dbUrl, ensureDatabase } from './game.ts';
import { type EndpointVsSqlFigures, endpointVsSql } from './load.ts';

/**
 * GET /api/v1/grid under load (served from the per-cell candidate lists, modules/discovery/candidates.ts):
 * p50/p95 at 32 concurrent clients against the real app
 * (its own process, bench/grid-app.ts), and the same SQL straight through the driver with 32
 * concurrent clients in the same run. PostgreSQL at 1 M users (100 k with --quick), and PGlite at
 * 100 k. Data lives in database `fmk_bench`, schema `grid_bench_<users>`, and is reused between runs.
 */
/** The grid's candidate lists in memory (grid-app.ts listsMemory); null without --expose-gc. */
export interface ListsMemory {
  lists: number;
  entries: number;
  heapBytes: number;
  bytesPerEntry: number;
  populatedCells: number;
  allCellsListedMb: number;
  allCellsListedMbPer100k: number;
  capMb: number;
  /** The grid's rules in memory (memory.ts) over the same viewers' pages. */
  rules: {
    profiles: number;
    viewers: number;
    actors: number;
    boosts: number;
    heapBytes: number;
    bytesPerProfile: number;
    capMb: number;
  };
}

export interface GridBenchResult extends EndpointVsSqlFigures {
  name: string;
  database: 'postgres' | 'pglite';
  users: number;
  lists: ListsMemory | null;
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
    execArgv: ['--import', 'tsx', '--expose-gc', ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)],
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
  const run = await endpointVsSql<{ raw: number[]; seconds: number; lists: ListsMemory | null }>(child, 'grid', {
    path: '/api/v1/grid',
    requests: opts.requests,
    concurrency,
    explain: Boolean(process.env.GRID_BENCH_EXPLAIN) && opts.database === 'postgres',
    generated: (s) => console.log(`grid bench: generated ${opts.users} users on ${opts.database} in ${s.toFixed(0)} s`),
  });
  return {
    name: `GET /api/v1/grid p95 at ${concurrency} concurrent clients, ${opts.database}, ${opts.users} users`,
    database: opts.database,
    users: opts.users,
    ...run.figures,
    lists: run.raw.lists,
  };
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
