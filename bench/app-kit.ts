import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
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

/** A session and a token for each viewer (straight into the sessions table), then the real app on 127.0.0.1. */
export async function serveForViewers(database: Database, config: Config, viewerIds: readonly string[], now: Date) {
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
  const app = await createApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind');
  return { app, port: address.port, auth };
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

/** Tells the driver the server is up: its port, the viewers' tokens and how long generating took. */
export function ready(port: number, auth: string[], generatedSeconds: number | null, viewers: number): void {
  send({ ready: true, port, auth, generatedSeconds, viewers });
}
