import { type Database, type Db, migrateToLatest, openDatabase } from '@fmk/server/src/db/index.ts';
import { nearbySearch } from '@fmk/server/src/modules/cruise/nearby.ts';
import { nearbyForViewerQuery } from '@fmk/server/src/modules/cruise/repo/nearby.ts';
import { sql } from 'kysely';
import pg from 'pg';
import { answerCommands, benchConfig, closedLoop, explainPlan, ready, serveForViewers } from './app-kit.ts';
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

  const config = benchConfig('cruise', { DATABASE_URL: url });
  const { app, port, auth } = await serveForViewers(database, config, viewerIds, now);

  /** The endpoint's statement for a viewer: the same builder and parameters as the service. */
  async function compiledFor(id: string) {
    return nearbyForViewerQuery(database.db, nearbySearch(id, 5, new Date()), LIMIT, K).compile();
  }

  answerCommands(app, {
    explain: async () => explainPlan(url, schema, await compiledFor(viewerIds[0]!)),
    raw: async (count, concurrency) => {
      const compiled = await Promise.all(viewerIds.map(compiledFor));
      const pool = new pg.Pool({ connectionString: url, max: concurrency, options: `-c search_path=${schema},public` });
      let rows = 0;
      const { lat, seconds } = await closedLoop(count, concurrency, compiled.length, async (k, measured) => {
        const c = compiled[k % compiled.length]!;
        const r = await pool.query<{ c_id: string | null }>(c.sql, c.parameters as unknown[]);
        if (measured) rows += r.rows.filter((x) => x.c_id !== null).length;
      });
      await pool.end();
      return { raw: lat, seconds, meanRows: rows / Math.max(1, lat.length) };
    },
  });
  ready(port, auth, world.generatedSeconds, viewerIds.length);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
