import { fork } from 'node:child_process';
import path from 'node:path';
import { BENCH_DB, dbUrl, ensureDatabase } from './game.ts';
import { type EndpointVsSqlFigures, endpointVsSql } from './load.ts';

/**
 * GET /api/v1/cruise/nearby under load: p50/p95 at 32 concurrent clients against the
 * real app (its own process, bench/cruise-app.ts) with `active` users cruising in one city of a
 * `users`-strong world, and the same SQL straight through the driver with 32 concurrent clients
 * in the same run. Data lives in database `fmk_bench`, schema `cruise_bench`, reused between runs.
 * Same result shape as bench/grid.ts.
 */
export interface CruiseBenchResult extends EndpointVsSqlFigures {
  name: string;
  database: 'postgres';
  users: number;
  activeInCity: number;
  /** Cruisers per answer (the page is 50 at most): the query did real work. */
  meanRows: number;
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
  const run = await endpointVsSql<{ raw: number[]; seconds: number; meanRows: number }>(child, 'cruise', {
    path: '/api/v1/cruise/nearby',
    requests: opts.requests,
    concurrency,
    explain: Boolean(process.env.CRUISE_BENCH_EXPLAIN),
    generated: (s) => console.log(`cruise bench: generated ${opts.users} users in ${s.toFixed(0)} s`),
  });
  return {
    name: `GET /api/v1/cruise/nearby p95 at ${concurrency} concurrent clients, postgres, ${opts.users} users, ${opts.active} cruising in one city`,
    database: 'postgres',
    users: opts.users,
    activeInCity: opts.active,
    meanRows: Math.round(run.raw.meanRows * 10) / 10,
    ...run.figures,
  };
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
