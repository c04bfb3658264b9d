import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '@fmk/core';
import { createApp } from '@fmk/server/src/app.ts';
import type { Database } from '@fmk/server/src/db/index.ts';
import { TokenService } from '@fmk/server/src/platform/auth.ts';
import { type Config, loadConfig } from '@fmk/server/src/platform/config.ts';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';

/**
 * What the endpoint-vs-raw-SQL benchmarks' server processes (grid-app.ts, cruise-app.ts) share:
 * signing in the viewers, serving the real app, and answering the driver's commands over IPC.
 */

function send(msg: unknown): void {
  process.send?.(msg);
}

/**
 * The server's configuration in production mode, in a fresh data folder, with secrets of its own
 * (`name`: the benchmark) and `extra` (the database).
 */
export function benchConfig(name: string, extra: Record<string, string>): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), `fmk-${name}-bench-`));
  return loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    TOKEN_SECRET: `${name}-bench-token-secret-0123456789abcdef0123456789`,
    EMAIL_HASH_KEY: `${name}-bench-email-hash-key-0123456789abcdef0123456789`,
    HEALTH_KEY: `${name}-bench-health-key-0123456789abcdef0123456789`,
    PUSH_ENABLED: 'false',
    // Production wants a mail server and texts; a benchmark sends neither (none listens, SMS off).
    SMTP_URL: 'smtp://127.0.0.1:2525',
    SMS_ENABLED: 'false',
    ...extra,
  });
}

/** A session and a token for each viewer, straight into the sessions table. */
async function sessionsForViewers(database: Database, config: Config, viewerIds: readonly string[], now: Date) {
  const tokens = new TokenService(config.tokenSecret, 24 * 60, systemClock);
  const auth: string[] = [];
  for (const id of viewerIds) {
    const sid = randomUUID();
    await database.db
      .insertInto('sessions')
      .values({
        id: sid,
        user_id: id,
        created_at: now,
        expires_at: new Date(now.getTime() + 86_400_000),
        last_used_at: now,
        user_agent: 'bench',
        ip_address: null,
      })
      .execute();
    auth.push(`Bearer ${(await tokens.issue(id, sid)).token}`);
  }
  return auth;
}

/**
 * The viewers' sessions, then the real app on 127.0.0.1: in this process, or as `instances`
 * processes sharing one port (node:cluster, connections handed out in turn), as the app is run on a
 * machine of several cores (each instance one event loop; they share the database and its bus).
 * A worker runs the caller's own script: it must call `serveWorker` when `cluster.isWorker`.
 */
export async function serveForViewers(
  database: Database,
  config: Config,
  viewerIds: readonly string[],
  now: Date,
  instances = 1,
) {
  const auth = await sessionsForViewers(database, config, viewerIds, now);
  if (instances <= 1) {
    const app = await createApp({ config, database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('server did not bind');
    return { app, port: address.port, auth };
  }
  const port = await freePort();
  const workers = Array.from({ length: instances }, () => cluster.fork({ BENCH_WORKER_PORT: String(port) }));
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('message', () => resolve());
          w.once('exit', (code) => reject(new Error(`bench instance exited (${code})`)));
        }),
    ),
  );
  const close = async () => {
    const exited = (w: (typeof workers)[number]) =>
      new Promise((resolve) => {
        if (w.isDead()) return resolve(null);
        w.once('exit', resolve);
        w.kill();
      });
    await Promise.all(workers.map(exited));
  };
  return { app: { close }, port, auth };
}

/** One of serveForViewers' instances: the real app on the port the primary chose, then tells it. */
export async function serveWorker(database: Database, config: Config): Promise<void> {
  const app = await createApp({ config, database, logger: false });
  await app.listen({ port: Number(process.env.BENCH_WORKER_PORT), host: '127.0.0.1' });
  process.send?.({ listening: true });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** EXPLAIN (ANALYZE, BUFFERS) of a compiled statement in the bench schema, as text. */
export async function explainPlan(url: string, schema: string, c: CompiledQuery): Promise<string> {
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema},public` });
  const r = await pool.query(`explain (analyze, buffers) ${c.sql}`, c.parameters as unknown[]);
  await pool.end();
  return r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n');
}

/**
 * A closed loop: `concurrency` workers run `count` measured calls of `run` after a warm-up of up
 * to two rounds of `rounds` calls (told `measured: false`); latencies of the measured ones only.
 */
export async function closedLoop(
  count: number,
  concurrency: number,
  rounds: number,
  run: (k: number, measured: boolean) => Promise<void>,
): Promise<{ lat: number[]; seconds: number }> {
  const lat: number[] = [];
  let next = 0;
  const warm = Math.min(count, rounds * 2);
  let t0 = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const k = next++;
        if (k >= count + warm) return;
        if (k === warm) t0 = performance.now();
        const s = performance.now();
        await run(k, k >= warm);
        if (k >= warm) lat.push(performance.now() - s);
      }
    }),
  );
  return { lat, seconds: (performance.now() - t0) / 1000 };
}

/**
 * The driver's commands: 'stop' closes the app and exits, 'explain' sends the plan (when the
 * database has one to show), 'raw' runs the endpoint's SQL `count` times at `concurrency` and
 * sends what `raw` measured.
 */
export function answerCommands(
  app: { close: () => Promise<unknown> },
  commands: { explain?: () => Promise<string>; raw: (count: number, concurrency: number) => Promise<object> },
): void {
  process.on('message', async (msg: { cmd: string; count?: number; concurrency?: number }) => {
    if (msg.cmd === 'stop') {
      await app.close();
      process.exit(0);
    }
    if (msg.cmd === 'explain' && commands.explain) send({ explain: await commands.explain() });
    if (msg.cmd === 'raw') send(await commands.raw(msg.count!, msg.concurrency!));
  });
}

/** Tells the driver the server is up: its port, the viewers' tokens, how long generating took, how many instances serve. */
export function ready(port: number, auth: string[], generatedSeconds: number | null, viewers: number, instances = 1): void {
  send({ ready: true, port, auth, generatedSeconds, viewers, instances });
}
