import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { systemClock } from '@fmk/core';
import { TokenService } from '@fmk/server/src/platform/auth.ts';
import pg from 'pg';
import { BENCH_DB, createUsers, dbUrl, ensureDatabase, pct, startBenchServer, waitHealthy } from './game.ts';

/**
 * An authenticated trivial route against its floor: GET /api/v1/auth/check on the real
 * server (production mode, PostgreSQL, its own process) with a signed-in user's token, and a bare
 * Fastify hello-world (its own process) in the same run, each driven by the same keep-alive
 * client at the same concurrency for the same time, in alternating rounds (the median round a
 * side). Goal: req/s ≥ 0.75 × the floor.
 */
export interface HttpBenchResult {
  name: string;
  unit: string;
  samples: number[];
  median: number;
  concurrency: number;
  seconds: number;
  app: { rps: number; p50: number; p99: number; errors: number };
  floor: { rps: number; p50: number; p99: number; errors: number };
  ratio: number;
  goal: string;
  pass: boolean;
}

const EMAIL_PREFIX = 'bench-http-';

function helloMain(): void {
  void (async () => {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: false });
    app.get('/hello', async () => ({ hello: 'world' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    process.send?.({ port: typeof addr === 'object' && addr ? addr.port : 0 });
  })();
}

function startHello(): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--hello-server'], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve({ child, port: (m as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`hello server exited with ${code}`)));
  });
}

/** Closed-loop load: `concurrency` keep-alive clients, each sending its next request when the last answers. */
export async function closedLoop(
  port: number,
  path: string,
  headers: Record<string, string>,
  concurrency: number,
  seconds: number,
): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const lat: number[] = [];
  let errors = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) lat.push(performance.now() - t0);
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  // Warm-up (JIT, connections), then the measured window.
  const warmEnd = performance.now() + 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmEnd) await one();
    }),
  );
  lat.length = 0;
  errors = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  const s = [...lat].sort((a, b) => a - b);
  const at = (p: number) => Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0) * 100) / 100;
  return { rps: Math.round(lat.length / elapsed), p50: at(50), p99: at(99), errors };
}

type Loop = Awaited<ReturnType<typeof closedLoop>>;

/** Rounds a side (httpBench). */
const ROUNDS = 5;

/** Each figure's median over the rounds; errors are summed. */
function medianLoop(loops: readonly Loop[]): Loop {
  const mid = (pick: (l: Loop) => number) =>
    pct(
      loops.map(pick).sort((a, b) => a - b),
      50,
    ) ?? 0;
  return {
    rps: mid((l) => l.rps),
    p50: mid((l) => l.p50),
    p99: mid((l) => l.p99),
    errors: loops.reduce((n, l) => n + l.errors, 0),
  };
}

export async function httpBench(opts: { concurrency?: number; seconds?: number } = {}): Promise<HttpBenchResult> {
  const concurrency = opts.concurrency ?? 32;
  const seconds = opts.seconds ?? 10;
  await ensureDatabase();
  const { child, base, port, secret, dataDir } = await startBenchServer('fmk-bench-http-');
  const client = new pg.Client({ connectionString: dbUrl(BENCH_DB) });
  let hello: ChildProcess | null = null;
  try {
    await waitHealthy(base, child);
    await client.connect();
    await client.query(`delete from users where email like '${EMAIL_PREFIX}%'`);
    const tokens = new TokenService(secret, 24 * 60, systemClock);
    const auth = await createUsers(client, tokens, 1, randomBytes(4).toString('hex'), EMAIL_PREFIX);
    const authorization = [...auth.values()][0]!;
    const h = await startHello();
    hello = h.child;
    // The two alternate in ROUNDS rounds, and the figures are each side's median round: one 10 s
    // window a side read 0.65-1.46 from run to run on a machine whose other work comes and goes.
    const apps: Loop[] = [];
    const floors: Loop[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      apps.push(await closedLoop(port, '/api/v1/auth/check', { authorization }, concurrency, seconds / ROUNDS));
      floors.push(await closedLoop(h.port, '/hello', {}, concurrency, seconds / ROUNDS));
    }
    const app = medianLoop(apps);
    const floor = medianLoop(floors);
    const ratio = Math.round((app.rps / Math.max(floor.rps, 1)) * 100) / 100;
    return {
      name: `authenticated trivial route req/s vs bare Fastify (${concurrency} clients, ${ROUNDS} alternating rounds of ${seconds / ROUNDS} s a side)`,
      unit: 'req/s',
      samples: apps.map((a) => a.rps),
      median: app.rps,
      concurrency,
      seconds,
      app,
      floor,
      ratio,
      goal: 'req/s ≥ 0.75 × bare Fastify hello-world',
      pass: ratio >= 0.75 && app.errors === 0,
    };
  } finally {
    if (hello) hello.kill();
    await client.query(`delete from users where email like '${EMAIL_PREFIX}%'`).catch(() => {});
    await client.end().catch(() => {});
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--hello-server')) helloMain();
else if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  console.log(JSON.stringify(await httpBench(quick ? { seconds: 4 } : {}), null, 2));
}
