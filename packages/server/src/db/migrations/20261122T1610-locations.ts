import { type Kysely, sql } from 'kysely';

// Issue 4: locations and the grid. A location row holds only the centre of the user's privacy
// cell (core geo.ts snap): the raw position is never stored. `geo` is that centre as a cube point
// (x, y, z on core's sphere, plus a per-user tie coordinate: see discovery/repo.ts), written by
// the server and indexed with GiST so the grid walks users in distance order (KNN, `<->`).
//
// A plain column is indexed, not an expression: an index on `ll_to_earth(lat, lng)` is lost on a
// pg_dump restore (STACK.md trap 6), and a wrapper function with a fixed search_path cannot be
// inlined, which made every recheck ~40 times slower when measured. Only `cube` is needed: the
// points are computed in TypeScript, so earthdistance and its search_path-bound functions are not.
export async function up(db: Kysely<unknown>): Promise<void> {
  // In public, shared by every schema: tests give each suite a schema of its own and drop it
  // CASCADE, which must not take the extension away from the suites still running.
  await sql`create extension if not exists cube with schema public`.execute(db);

  await db.schema
    .createTable('user_locations')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('geo', sql`public.cube`, (c) => c.notNull())
    .addColumn('cell_row', 'integer', (c) => c.notNull())
    .addColumn('cell_col', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('dating').check(sql`mode in ('dating','now')`))
    .addColumn('last_updated', 'timestamptz', (c) => c.notNull())
    .addColumn('flagged_at', 'timestamptz')
    .addColumn('flag_reason', 'text')
    .execute();
  await sql`create index user_locations_geo on user_locations using gist (geo)`.execute(db);

  // The viewer's clickable grid profiles for one (UTC) day: the first N of his grid order.
  await db.schema
    .createTable('grid_unlocks')
    .addColumn('viewer_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('grid_unlocks_pk', ['viewer_id', 'day', 'target_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The extension stays: it lives in public and other schemas may use it.
  for (const t of ['grid_unlocks', 'user_locations']) await db.schema.dropTable(t).execute();
}
