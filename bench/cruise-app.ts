import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '@fmk/core';
import { createApp } from '@fmk/server/src/app.ts';
import { type Database, type Db, migrateToLatest, openDatabase } from '@fmk/server/src/db/index.ts';
import { nearbySearch } from '@fmk/server/src/modules/cruise/nearby.ts';
import { nearbyForViewerQuery } from '@fmk/server/src/modules/cruise/repo/nearby.ts';
import { TokenService } from '@fmk/server/src/platform/auth.ts';
import { loadConfig } from '@fmk/server/src/platform/config.ts';
import { sql } from 'kysely';
import pg from 'pg';
import { generateUsers, markCruisers } from './generate.ts';

/**
 * The cruise benchmark's server process (bench/cruise.ts drives it over IPC): opens the
 * database, generates the world when it is missing, marks the city's cruisers (sessions age with
 * the clock, so every run), signs in a sample of them as viewers, serves the real app on
 * 127.0.0.1, and on request runs the endpoint's nearby SQL straight through the driver.
 */
const users = Number(process.env.CRUISE_BENCH_USERS);
const active = Number(process.env.CRUISE_BENCH_ACTIVE);
const viewersWanted = Number(process.env.CRUISE_BENCH_VIEWERS ?? 256);
const url = process.env.CRUISE_BENCH_URL!;
const schema = process.env.CRUISE_BENCH_SCHEMA!;
const SEED = 20261122;
/** Berlin in bench/generate.ts BENCH_CITIES. */
const CITY = 3;
/** The endpoint's defaults: 5 km, 50 at most, looking among the 4 × 50 nearest first. */
const LIMIT = 50;
const K = LIMIT * 4;

function send(msg: unknown): void {
  process.send?.(msg);
}

async function open(): Promise<Database> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema if not exists ${schema}`);
  await admin.end();
  return openDatabase({ databaseUrl: url, schema });
}

async function ensureWorld(db: Db, now: Date): Promise<{ generatedSeconds: number | null; cruisers: string[] }> {
  await sql`create table if not exists cruise_bench_meta (users int not null, seed int not null, generated_at timestamptz not null)`.execute(
    db,
  );
  const meta = await sql<{ users: number; seed: number }>`select * from cruise_bench_meta`.execute(db);
  const m = meta.rows[0];
  let generatedSeconds: number | null = null;
  if (!(m?.users === users && m.seed === SEED)) {
    await sql`truncate users cascade`.execute(db);
    await sql`delete from cruise_bench_meta`.execute(db);
    generatedSeconds = (await generateUsers(db, users, SEED, now)).seconds;
    await sql`insert into cruise_bench_meta (users, seed, generated_at) values (${users}, ${SEED}, ${now})`.execute(db);
  }
  const cruisers = await markCruisers(db, active, CITY, users, now);
  return { generatedSeconds, cruisers };
}

async function main(): Promise<void> {
  const now = new Date();
  const database = await open();
  await migrateToLatest(database.db, schema);
  const world = await ensureWorld(database.db, now);
  // Viewers: cruisers spread over the city, each with his own position (their cell centres).
  const step = Math.max(1, Math.floor(world.cruisers.length / viewersWanted));
  const viewerIds = Array.from({ length: viewersWanted }, (_, k) => world.cruisers[(k * step) % world.cruisers.length]!);
  await sql`delete from sessions`.execute(database.db);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-cruise-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    PUSH_ENABLED: 'false',
    // Production wants a mail server and texts; a benchmark sends neither (none listens, SMS off).
    SMTP_URL: 'smtp://127.0.0.1:2525',
    SMS_ENABLED: 'false',
    TOKEN_SECRET: 'cruise-bench-token-secret-0123456789abcdef0123456789',
    EMAIL_HASH_KEY: 'cruise-bench-email-hash-key-0123456789abcdef01234567',
    HEALTH_KEY: 'cruise-bench-health-key-0123456789abcdef0123456789ab',
    DATABASE_URL: url,
  });
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

  /** The endpoint's statement for a viewer: the same builder and parameters as the service. */
  async function compiledFor(id: string) {
    return nearbyForViewerQuery(database.db, nearbySearch(id, 5, new Date()), LIMIT, K).compile();
  }

  process.on('message', async (msg: { cmd: string; count?: number; concurrency?: number }) => {
    if (msg.cmd === 'stop') {
      await app.close();
      process.exit(0);
    }
    if (msg.cmd === 'explain') {
      const c = await compiledFor(viewerIds[0]!);
      const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema},public` });
      const r = await pool.query(`explain (analyze, buffers) ${c.sql}`, c.parameters as unknown[]);
      await pool.end();
      send({ explain: r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n') });
    }
    if (msg.cmd === 'raw') {
      const count = msg.count!;
      const concurrency = msg.concurrency!;
      const compiled = await Promise.all(viewerIds.map(compiledFor));
      const pool = new pg.Pool({ connectionString: url, max: concurrency, options: `-c search_path=${schema},public` });
      const lat: number[] = [];
      let rows = 0;
      let next = 0;
      const warm = Math.min(count, compiled.length * 2);
      let t0 = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (;;) {
            const k = next++;
            if (k >= count + warm) return;
            if (k === warm) t0 = performance.now();
            const s = performance.now();
            const c = compiled[k % compiled.length]!;
            const r = await pool.query<{ c_id: string | null }>(c.sql, c.parameters as unknown[]);
            if (k >= warm) {
              lat.push(performance.now() - s);
              rows += r.rows.filter((x) => x.c_id !== null).length;
            }
          }
        }),
      );
      await pool.end();
      send({ raw: lat, seconds: (performance.now() - t0) / 1000, meanRows: rows / Math.max(1, lat.length) });
    }
  });
  send({ ready: true, port: address.port, auth, generatedSeconds: world.generatedSeconds, viewers: viewerIds.length });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
