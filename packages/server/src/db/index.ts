import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { DB } from './schema.ts';

export type { DB } from './schema.ts';
export type Db = Kysely<DB>;

// int8 (bigserial ids, count(*)) arrives as a string from pg and as a number from PGlite
// (docs/decisions/0001): normalise here, once, to numbers. Our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** Extensions the migrations create (cube, for the grid's geo index): PGlite must load them at start. */
export const PGLITE_EXTENSIONS = { cube };

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The raw PGlite instance when embedded (tests clone it). */
  pglite: PGlite | null;
  /** PostgreSQL only: where it is, for connections of their own (the bus's LISTEN). */
  url?: string;
  schema?: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; `memory://` for a throwaway one. */
  dataDir?: string;
  /** A PostgreSQL schema to work in (tests isolate suites this way). */
  schema?: string;
  /** An existing PGlite (a clone of a migrated template in tests). */
  pglite?: PGlite;
}

/** How long an idle pooled connection to PostgreSQL is kept. */
export const POOL_IDLE_MS = 5 * 60_000;

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      // A connection idle this long is closed (pg's default: 10 s). A new one costs PostgreSQL a
      // backend whose caches start cold (catalogs, plans, the send's PL/pgSQL function): after a
      // 10 s lull the default closed all ten, and the burst that followed paid for ten at once
      // (messages waited 300-800 ms in the messaging benchmark's rounds on this machine).
      idleTimeoutMillis: POOL_IDLE_MS,
      ...(opts.schema ? { options: `-c search_path=${opts.schema},public` } : {}),
    });
    // A connection PostgreSQL ends (a restart, a crash, an admin's pg_terminate_backend) emits
    // 'error' on its client: on an idle one through the pool, on one in use on the client itself,
    // where pg-pool listens no longer. Unheard, either ends the process. The query in flight fails
    // on its own (its request answers 500 and may be retried) and the pool drops the broken client.
    const lost = (err: Error) => console.warn(`database connection lost: ${err.message}`);
    pool.on('error', lost);
    pool.on('connect', (client) => client.on('error', lost));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      pglite: null,
      url: opts.databaseUrl,
      ...(opts.schema ? { schema: opts.schema } : {}),
      close: () => db.destroy(),
    };
  }
  let pglite = opts.pglite;
  if (!pglite) {
    const dir = opts.dataDir ?? 'memory://';
    if (!dir.startsWith('memory://')) mkdirSync(dir, { recursive: true });
    pglite = await PGlite.create(dir, { extensions: PGLITE_EXTENSIONS });
  }
  const instance = pglite;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(instance) });
  return {
    db,
    kind: 'pglite',
    pglite: instance,
    close: async () => {
      await db.destroy();
      if (!instance.closed) await instance.close();
    },
  };
}

/** Applies every pending migration; throws with the failing migration's name. */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works on any schema.
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<void> {
  // The migrator must look for its tables in the schema it migrates (by default the connection's
  // current one): otherwise it sees another schema's kysely_migration table in the same database
  // and skips creating its own.
  const target = schema ?? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(target ? { migrationTableSchema: target } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** GET /api/health's database check: a read of the users table answers (throws when it does not). */
export async function checkDatabase(db: Db): Promise<void> {
  await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
}
