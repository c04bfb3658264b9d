import { type ChildProcess, spawn } from 'node:child_process';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEFAULT_DATING_PROFILE,
  DEFAULT_MODE_VISIBILITY,
  DEFAULT_NOW_PROFILE,
  DEFAULT_PREFERENCES,
  DEFAULT_STATS,
  systemClock,
} from '@fmk/core';
import { TokenService } from '@fmk/server/src/platform/auth.ts';
import pg from 'pg';
import { pct } from './load.ts';

/**
 * Selection + match throughput: the real server (`main.ts`, its own process, on
 * PostgreSQL with the LISTEN/NOTIFY bus) takes a fixed number of POST /selections from 32
 * concurrent clients. Users come in pairs that choose each other, in shuffled order, so half of
 * the requests create a match and a conversation, and some mutual pairs race; 10% are super.
 * Bench users live in database `fmk_bench` beside other benchmarks' data and are deleted after.
 */
export interface GameBenchResult {
  name: string;
  unit: string;
  samples: number[];
  median: number;
  requests: number;
  concurrency: number;
  latencyMs: { p50: number; p95: number; p99: number };
  matches: number;
  errors: number;
}

export const BENCH_DB = 'fmk_bench';
const EMAIL_PREFIX = 'bench-game-';

/** Production requires Web Push (VAPID) keys: a fresh P-256 pair (nothing is pushed to a real service here). */
export function vapidEnv(): Record<string, string> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    VAPID_PUBLIC_KEY: ecdh.getPublicKey('base64url'),
    VAPID_PRIVATE_KEY: ecdh.getPrivateKey('base64url'),
    VAPID_SUBJECT: 'mailto:bench@fmk.invalid',
  };
}

export function dbUrl(database: string): string {
  const base = new URL(process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/${BENCH_DB}`);
  base.pathname = `/${database}`;
  return base.toString();
}

export async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: dbUrl('postgres') });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [BENCH_DB]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${BENCH_DB}`);
  } finally {
    await admin.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

export async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (performance.now() - t0 > 60_000) throw new Error('server did not start within 60 s');
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Inserts `n` platinum users with a session each (sign-up would spend ~110 ms per argon2 hash). */
export async function createUsers(
  client: pg.Client,
  tokens: TokenService,
  n: number,
  run: string,
  prefix = EMAIL_PREFIX,
): Promise<Map<string, string>> {
  const auth = new Map<string, string>();
  const now = new Date();
  const expires = new Date(now.getTime() + 24 * 3600_000);
  for (let start = 0; start < n; start += 500) {
    const batch = Array.from({ length: Math.min(500, n - start) }, (_, i) => ({
      id: randomUUID(),
      sid: randomUUID(),
      email: `${prefix}${run}-${start + i}@bench.invalid`,
    }));
    const values: unknown[] = [];
    const rows = batch.map((u, i) => {
      values.push(u.id, u.email, `Bench ${start + i}`);
      const p = i * 3;
      return `($${p + 1}, $${p + 2}, $${p + 3}, 'platinum', true, true, '[]', '[]', '[]', '[]', $J1, $J2, $J3, $J4, $J5, now())`;
    });
    const json = [DEFAULT_PREFERENCES, DEFAULT_STATS, DEFAULT_DATING_PROFILE, DEFAULT_NOW_PROFILE, DEFAULT_MODE_VISIBILITY].map(
      (v) => JSON.stringify(v),
    );
    const base = values.length;
    const sqlText = `insert into users (id, email, display_name, subscription_tier, is_active, onboarding_complete,
        interests, intentions, selected_features, tribes, preferences, stats, dating_profile, now_profile, mode_visibility, updated_at)
      values ${rows.join(',').replace(/\$J(\d)/g, (_, k: string) => `$${base + Number(k)}`)}`;
    await client.query(sqlText, [...values, ...json]);
    const sv: unknown[] = [];
    const srows = batch.map((u, i) => {
      sv.push(u.sid, u.id, now, expires);
      return `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4}, $${i * 4 + 3})`;
    });
    await client.query(`insert into sessions (id, user_id, created_at, expires_at, last_used_at) values ${srows.join(',')}`, sv);
    for (const u of batch) auth.set(u.id, `Bearer ${(await tokens.issue(u.id, u.sid)).token}`);
  }
  return auth;
}

function shuffle<T>(xs: T[], seed = 42): T[] {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

export { pct };

/**
 * The real server (packages/server/src/main.ts) in its own process, in production mode on the
 * bench database, with fresh secrets; BENCH_NODE_ARGS adds node flags (e.g. --cpu-prof).
 */
export async function startBenchServer(
  dataDirPrefix: string,
): Promise<{ child: ChildProcess; base: string; port: number; secret: string; dataDir: string }> {
  const root = path.resolve(import.meta.dirname, '..');
  const secret = randomBytes(32).toString('hex');
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), dataDirPrefix));
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl(BENCH_DB),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      TOKEN_SECRET: secret,
      EMAIL_HASH_KEY: randomBytes(32).toString('hex'),
      HEALTH_KEY: randomBytes(32).toString('hex'),
      WEB_DIST: path.join(dataDir, 'no-web'),
      // Production wants a mail server and texts; a benchmark sends neither (none listens, SMS off).
      SMTP_URL: 'smtp://127.0.0.1:2525',
      SMS_ENABLED: 'false',
      // A benchmark sends faster than a person: one hot conversation takes 60 messages a second.
      MESSAGE_LIMIT_PER_MINUTE: '1000000',
      ...vapidEnv(),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, base: `http://127.0.0.1:${port}`, port, secret, dataDir };
}

export async function gameBench(opts: { requests?: number; concurrency?: number; runs?: number } = {}): Promise<GameBenchResult> {
  const requests = opts.requests ?? 4000;
  const concurrency = opts.concurrency ?? 32;
  const runs = opts.runs ?? 1;
  await ensureDatabase();
  const { child, base, secret, dataDir } = await startBenchServer('fmk-bench-game-');
  const client = new pg.Client({ connectionString: dbUrl(BENCH_DB) });
  const samples: number[] = [];
  const latencies: number[] = [];
  let matches = 0;
  let errors = 0;
  try {
    await waitHealthy(base, child);
    await client.connect();
    await client.query(`delete from users where email like '${EMAIL_PREFIX}%'`);
    const tokens = new TokenService(secret, 24 * 60, systemClock);
    for (let r = 0; r < runs; r++) {
      const run = randomBytes(4).toString('hex');
      const auth = await createUsers(client, tokens, requests, run);
      const ids = [...auth.keys()];
      const work: Array<{ from: string; to: string; action: 'fuck' | 'marry'; super: boolean }> = [];
      for (let i = 0; i + 1 < ids.length; i += 2) {
        const [a, b] = [ids[i]!, ids[i + 1]!];
        work.push({ from: a, to: b, action: i % 4 === 0 ? 'fuck' : 'marry', super: i % 20 === 0 });
        work.push({ from: b, to: a, action: 'fuck', super: false });
      }
      shuffle(work, 42 + r);
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < work.length) {
            const w = work[next++]!;
            const s = performance.now();
            const res = await fetch(`${base}/api/v1/selections`, {
              method: 'POST',
              headers: { authorization: auth.get(w.from)!, 'content-type': 'application/json' },
              body: JSON.stringify({ targetId: w.to, action: w.action, super: w.super, clientId: randomUUID() }),
            });
            const body = (await res.json()) as { match?: unknown };
            latencies.push(performance.now() - s);
            if (!res.ok) errors++;
            else if (body.match) matches++;
          }
        }),
      );
      samples.push(work.length / ((performance.now() - t0) / 1000));
    }
  } finally {
    await client.query(`delete from users where email like '${EMAIL_PREFIX}%'`).catch(() => {});
    await client.end().catch(() => {});
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const lat = latencies.sort((a, b) => a - b);
  return {
    name: `selection + match throughput on PostgreSQL (${requests} POST /selections, ${concurrency} clients)`,
    unit: 'req/s',
    samples,
    median: sorted[Math.floor(sorted.length / 2)]!,
    requests,
    concurrency,
    latencyMs: { p50: pct(lat, 50), p95: pct(lat, 95), p99: pct(lat, 99) },
    matches,
    errors,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await gameBench({ runs: process.argv.includes('--quick') ? 1 : 3 });
  console.log(JSON.stringify(r, null, 2));
}
