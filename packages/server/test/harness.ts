import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Clock, fixedClock } from '@fmk/core';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../src/app.ts';
import { type Database, migrateToLatest, openDatabase, PGLITE_EXTENSIONS } from '../src/db/index.ts';
import { type Config, loadConfig } from '../src/platform/config.ts';

/**
 * Test harness (STYLE.md #14): the real app on a real database. PGlite always; PostgreSQL too when
 * TEST_DATABASE_URL is set, each suite in a schema of its own, dropped afterwards.
 */
export type DbKind = 'pglite' | 'postgres';
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

let template: Promise<PGlite> | null = null;
/** One migrated PGlite per test process; each suite gets a clone (~0.5 s instead of ~3 s). */
function migratedTemplate(): Promise<PGlite> {
  template ??= (async () => {
    const pgl = await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
    const d = await openDatabase({ pglite: pgl });
    await migrateToLatest(d.db);
    await d.db.destroy();
    return pgl;
  })();
  return template;
}

export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === 'pglite') {
    const clone = await (await migratedTemplate()).clone();
    return openDatabase({ pglite: clone as PGlite });
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const d = await openDatabase({ databaseUrl: url, schema });
  await migrateToLatest(d.db, schema);
  return {
    ...d,
    close: async () => {
      await d.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

/**
 * A migrated database of a test's own, for a real server process to open: PostgreSQL's database at
 * `url` migrated in place; PGlite's folder `dbDir` loaded with a copy of the migrated template
 * (creating and migrating a database on disk takes ~30 s on a loaded machine; the copy, ~2 s).
 */
export async function openMigratedDatabase(kind: DbKind, url: string | undefined, dbDir: string): Promise<Database> {
  if (kind === 'postgres') {
    const database = await openDatabase({ databaseUrl: url });
    await migrateToLatest(database.db);
    return database;
  }
  const tar = await (await migratedTemplate()).dumpDataDir('none');
  mkdirSync(dbDir, { recursive: true });
  return openDatabase({ pglite: await PGlite.create(dbDir, { extensions: PGLITE_EXTENSIONS, loadDataDir: tar }) });
}

export function testConfig(env: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-test-'));
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    TOKEN_SECRET: randomBytes(32).toString('hex'),
    EMAIL_HASH_KEY: randomBytes(32).toString('hex'),
    // Suites sign up many users from one address; the sign-up limit's own test sets its figures.
    SIGNUP_LIMIT_PER_SOURCE: '1000000',
    SIGNUP_LIMIT_GLOBAL: '1000000',
    // No sandbox webhooks on a timer: one landing a second after a payment falls in the middle of
    // whatever the test does next (a row diff, a fuzzed request). Tests send their own, signed.
    SANDBOX_WEBHOOK_DELAY_MS: '0',
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Database['db'];
  config: Config;
  clock: ReturnType<typeof fixedClock>;
  /** The embedded database itself on PGlite (null on PostgreSQL), for tests that listen to it. */
  pglite?: PGlite | null;
}

/**
 * Boots one app for a describe block and closes it afterwards. The clock is fixed and movable.
 * Use: `const t = useTestApp(kind);` then `t().app.inject(...)` inside tests.
 */
export function useTestApp(
  kind: DbKind,
  opts: {
    env?: Record<string, string>;
    clock?: Clock;
    /** Turns the app's logger on (at the configuration's LOG_LEVEL) and sends its lines here. */
    logStream?: { write(line: string): void };
    /** Adds test-only routes before the app is ready (never part of the production app). */
    setup?: (app: FastifyInstance) => void | Promise<void>;
  } = {},
): () => TestApp {
  let current: TestApp | null = null;
  beforeAll(async () => {
    const config = testConfig(opts.env);
    const database = await openTestDatabase(kind);
    const clock = fixedClock('2026-06-01T12:00:00Z');
    const app = await createApp({
      config,
      database,
      clock: opts.clock ?? clock,
      ...(opts.logStream ? { logStream: opts.logStream } : { logger: false }),
    });
    await opts.setup?.(app);
    await app.ready();
    current = { app, db: database.db, config, clock, pglite: database.pglite };
  });
  afterAll(async () => {
    if (!current) return;
    await current.app.close();
    rmSync(current.config.dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!current) throw new Error('test app not started');
    return current;
  };
}
