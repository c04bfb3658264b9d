import cluster from 'node:cluster';
import { DEFAULT_PREFERENCES, type GridQuery, systemClock } from '@fmk/core';
import { type Database, type Db, migrateToLatest, openDatabase } from '@fmk/server/src/db/index.ts';
import { CandidateCache, MAX_ENTRIES } from '@fmk/server/src/modules/discovery/candidates.ts';
import { GridMemory, MAX_PROFILES } from '@fmk/server/src/modules/discovery/memory.ts';
import { findGridViewer, gridPageQuery } from '@fmk/server/src/modules/discovery/repo.ts';
import { dayOf, GridService, gridSearch, NEAREST_FACTOR } from '@fmk/server/src/modules/discovery/service.ts';
import { loadActor } from '@fmk/server/src/platform/access.ts';
import { sql } from 'kysely';
import pg from 'pg';
import { answerCommands, benchConfig, closedLoop, explainPlan, ready, serveForViewers, serveWorker } from './app-kit.ts';
import { benchUserId, generateUsers } from './generate.ts';

/**
 * The grid benchmark's server process (bench/grid.ts drives it over IPC): opens the database,
 * generates the world when it is missing, signs in a sample of viewers, serves the real app on
 * 127.0.0.1, and on request runs the endpoint's grid SQL straight through the driver.
 */
const kind = process.env.GRID_BENCH_KIND as 'postgres' | 'pglite';
const users = Number(process.env.GRID_BENCH_USERS);
const viewersWanted = Number(process.env.GRID_BENCH_VIEWERS ?? 256);
/**
 * The app's instances: one per core on PostgreSQL (this machine has two), as it is deployed; one
 * on PGlite, which is embedded in its one process.
 */
const instances = kind === 'postgres' ? Number(process.env.GRID_BENCH_INSTANCES ?? 2) : 1;
const SEED = 20261122;
const now = new Date();

const appConfig = () => benchConfig('grid', kind === 'postgres' ? { DATABASE_URL: process.env.GRID_BENCH_URL! } : {});

async function open(): Promise<Database> {
  if (kind === 'postgres') {
    const url = process.env.GRID_BENCH_URL!;
    const schema = process.env.GRID_BENCH_SCHEMA!;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema if not exists ${schema}`);
    await admin.end();
    return openDatabase({ databaseUrl: url, schema });
  }
  return openDatabase({ dataDir: process.env.GRID_BENCH_DATADIR! });
}

async function ensureWorld(db: Db): Promise<{ generatedSeconds: number | null }> {
  await sql`create table if not exists grid_bench_meta (users int not null, seed int not null, generated_at timestamptz not null)`.execute(
    db,
  );
  const meta = await sql<{ users: number; seed: number; generated_at: Date }>`select * from grid_bench_meta`.execute(db);
  const m = meta.rows[0];
  if (m?.users === users && m.seed === SEED) {
    // Locations were dated up to 20 days before generation; the grid drops them after 30.
    if (now.getTime() - new Date(m.generated_at).getTime() > 9 * 86_400_000) {
      await sql`update user_locations set last_updated = last_updated + (${now}::timestamptz - ${m.generated_at}::timestamptz)`.execute(
        db,
      );
      await sql`update grid_bench_meta set generated_at = ${now}`.execute(db);
    }
    return { generatedSeconds: null };
  }
  await sql`truncate users cascade`.execute(db);
  await sql`delete from grid_bench_meta`.execute(db);
  const g = await generateUsers(db, users, SEED, now);
  await sql`insert into grid_bench_meta (users, seed, generated_at) values (${users}, ${SEED}, ${now})`.execute(db);
  return { generatedSeconds: g.seconds };
}

async function main(): Promise<void> {
  const database = await open();
  if (cluster.isWorker) return serveWorker(database, appConfig());
  const schema = kind === 'postgres' ? process.env.GRID_BENCH_SCHEMA : undefined;
  await migrateToLatest(database.db, schema);
  const world = await ensureWorld(database.db);
  // Viewers: a spread of located, complete users, free tier (the common case: 5 clickable).
  const step = Math.max(1, Math.floor(users / (viewersWanted * 2)));
  const candidates = Array.from({ length: viewersWanted * 2 }, (_, k) => benchUserId((k * step) % users));
  const usable = await database.db
    .selectFrom('users as u')
    .innerJoin('user_locations as ul', 'ul.user_id', 'u.id')
    .select('u.id')
    .where('u.id', 'in', candidates)
    .where('u.is_active', '=', true)
    // An unfinished profile may not list the grid: such a viewer would only measure the refusal.
    .where('u.onboarding_complete', '=', true)
    .where('ul.is_active', '=', true)
    .orderBy('u.id')
    .limit(viewersWanted)
    .execute();
  const viewerIds = usable.map((r) => r.id);
  await database.db
    .updateTable('users')
    .set({ preferences: JSON.stringify(DEFAULT_PREFERENCES), current_mode: 'dating' })
    .where('id', 'in', viewerIds)
    .execute();
  await sql`delete from grid_unlocks`.execute(database.db);
  await sql`delete from sessions`.execute(database.db);

  const { app, port, auth } = await serveForViewers(database, appConfig(), viewerIds, now, instances);

  // The endpoint's SQL for each viewer's first page after his first visit of the day
  // (unlocks written, so no unlock fetch): the same builder and parameters as the service.
  const q: GridQuery = { limit: 60 };
  async function compiledFor(id: string) {
    const row = await findGridViewer(database.db, id, dayOf(new Date()));
    const { v, filters } = gridSearch(id, { ...row!, lat: row!.lat!, lng: row!.lng! }, q, new Date(), null);
    return gridPageQuery(database.db, v, filters, null, q.limit + 1, (q.limit + 1) * NEAREST_FACTOR).compile();
  }

  answerCommands(app, {
    explain:
      kind === 'postgres'
        ? async () => explainPlan(process.env.GRID_BENCH_URL!, schema!, await compiledFor(viewerIds[0]!))
        : undefined,
    raw: async (count, concurrency) => {
      const compiled = await Promise.all(viewerIds.map(compiledFor));
      let run: (i: number) => Promise<unknown>;
      let close = async () => {};
      if (kind === 'postgres') {
        const pool = new pg.Pool({
          connectionString: process.env.GRID_BENCH_URL,
          max: concurrency,
          options: `-c search_path=${schema},public`,
        });
        run = (i) => pool.query(compiled[i]!.sql, compiled[i]!.parameters as unknown[]);
        close = () => pool.end();
      } else {
        run = (i) => database.db.executeQuery(compiled[i]!);
      }
      const { lat, seconds } = await closedLoop(count, concurrency, compiled.length, async (k) => {
        await run(k % compiled.length);
      });
      await close();
      return { raw: lat, seconds, lists: await listsMemory(database.db, viewerIds) };
    },
  });
  ready(port, auth, world.generatedSeconds, viewerIds.length, instances);
}

/**
 * What the grid's candidate lists cost in memory: a cache of its own filled by every bench viewer's
 * first page through the grid service (the endpoint's code), the heap and array buffers measured
 * around it after a full GC (--expose-gc), per listed location; then per 100 k users were every populated cell of
 * this world listed (its count of distinct active cells), the worst case, below the cache's cap. Then
 * what the rules' memory (memory.ts) adds when the same viewers' pages run through it: men, viewers
 * and actors held, their bytes, and the men's cap in MB at that size.
 */
async function listsMemory(db: Db, viewerIds: string[]) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  // The lists' numbers live in typed arrays, whose backing stores are counted apart from the heap.
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  gc();
  const before = used();
  const cache = new CandidateCache();
  const grid = new GridService({ db, clock: systemClock }, 'lists memory', cache);
  for (const id of viewerIds) await grid.page((await loadActor(db, id))!, { limit: 60 });
  gc();
  const bytes = used() - before;
  const { lists, entries } = cache.stats();
  // Then the rules' memory over the same lists: every viewer's page again, through the route's path.
  const memory = new GridMemory();
  const withMemory = new GridService({ db, clock: systemClock }, 'lists memory', cache, memory);
  for (const id of viewerIds) await withMemory.pageFor(id, { limit: 60 }, async () => (await loadActor(db, id))!);
  gc();
  const held = memory.stats();
  const heldBytes = used() - before - bytes;
  const cells = await sql<{
    n: number;
  }>`select count(distinct (cell_row, cell_col))::int as n from user_locations where is_active`.execute(db);
  const populated = Number(cells.rows[0]?.n ?? 0);
  const perEntry = bytes / Math.max(1, entries);
  const perList = entries / Math.max(1, lists);
  const allCellsMb = (populated * perList * perEntry) / 2 ** 20;
  return {
    lists,
    entries,
    heapBytes: bytes,
    bytesPerEntry: Math.round(perEntry),
    populatedCells: populated,
    allCellsListedMb: Math.round(allCellsMb),
    allCellsListedMbPer100k: Math.round((allCellsMb * 100_000) / users),
    capMb: Math.round((MAX_ENTRIES * perEntry) / 2 ** 20),
    rules: {
      ...held,
      heapBytes: heldBytes,
      bytesPerProfile: Math.round(heldBytes / Math.max(1, held.profiles)),
      capMb: Math.round((MAX_PROFILES * heldBytes) / Math.max(1, held.profiles) / 2 ** 20),
    },
  };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
