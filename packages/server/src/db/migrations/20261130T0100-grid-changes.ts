import { type Kysely, sql } from 'kysely';

// The grid's rules in memory (modules/discovery/memory.ts, docs/decisions/0017): every write that
// can change what a viewer's grid shows, or how, leaves the ids it touches in grid_changes, written
// by triggers so that no write path can forget it. Each instance reads the rows since its last look
// before it serves a page (by transaction id, against its snapshot's xmin, so a row committed late is
// never skipped), and drops what it holds about those users. Rows older than ten minutes are pruned.
//
// The same log keeps the grid's actor (the signed-in viewer as access rules read him,
// platform/access/repo.ts findActorRow) in memory too. What is logged, and why only that:
// - users and user_settings: an update of any column but those that change without changing what
//   anyone sees (last seen, timestamps, push tokens, counters), so that a column added later is
//   covered; a delete. New users are in no cache; a user without a settings row is never kept.
// - user_locations: an update (the viewer's own place, a boosted man's, the place shift), a delete.
//   A viewer without a location is never kept.
// - admin_users: every write (a member made staff, a role or permission changed).
// - user_blocks, matches, conversations: inserts and deletes, both users of the pair; selections
//   the man chosen, grid_unlocks the viewer (a viewer's relations are which of these exist).
// - boosts: every write (the running boosts are held whole).
// - a truncate of any of these: a reset of everything held.

/** Columns whose updates alone are not logged. */
const USER_CHURN = ['last_seen', 'updated_at', 'token_updated', 'fcm_token', 'stats'];
const SETTINGS_CHURN = ['last_active', 'updated_at'];
const LOCATION_COLUMNS = ['lat', 'lng', 'is_active', 'shift_lat', 'shift_lng', 'last_updated'];

const distinct = (cols: string[]) =>
  `(${cols.map((c) => `old.${c}`).join(', ')}) is distinct from (${cols.map((c) => `new.${c}`).join(', ')})`;

/** The row but its churn columns, to compare old with new. */
const but = (row: 'old' | 'new', churn: string[]) => `(to_jsonb(${row}) - ${churn.map((c) => `'${c}'`).join(' - ')})`;
const changed = (churn: string[]) => `${but('old', churn)} is distinct from ${but('new', churn)}`;

/** Which columns of each table name the users a row concerns, and which writes are logged. */
const TABLES: Array<{ table: string; ids: string[]; events: string; when?: string }> = [
  { table: 'users', ids: ['id'], events: 'update', when: changed(USER_CHURN) },
  { table: 'users', ids: ['id'], events: 'delete' },
  { table: 'user_settings', ids: ['user_id'], events: 'update', when: changed(SETTINGS_CHURN) },
  { table: 'user_settings', ids: ['user_id'], events: 'delete' },
  { table: 'user_locations', ids: ['user_id'], events: 'update', when: distinct(LOCATION_COLUMNS) },
  { table: 'user_locations', ids: ['user_id'], events: 'delete' },
  { table: 'user_blocks', ids: ['blocker_id', 'blocked_id'], events: 'insert or delete' },
  { table: 'matches', ids: ['user_a', 'user_b'], events: 'insert or delete' },
  { table: 'conversations', ids: ['user_a', 'user_b'], events: 'insert or delete' },
  { table: 'selections', ids: ['target_id'], events: 'insert or delete' },
  { table: 'grid_unlocks', ids: ['viewer_id'], events: 'insert or delete' },
  { table: 'boosts', ids: ['user_id'], events: 'insert or update or delete' },
  { table: 'admin_users', ids: ['user_id'], events: 'insert or update or delete' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table grid_changes (
    txid xid8 not null default pg_current_xact_id(),
    user_id text not null,
    what text not null,
    at timestamptz not null default clock_timestamp()
  )`.execute(db);
  await sql`create index grid_changes_txid on grid_changes (txid)`.execute(db);
  await sql`create index grid_changes_at on grid_changes (at)`.execute(db);
  // The row's users, from NEW on insert and update, OLD on delete; TG_ARGV names the id columns.
  await sql`create function grid_changed() returns trigger language plpgsql as $fn$
    declare
      r jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
      i int;
    begin
      for i in 0 .. tg_nargs - 1 loop
        insert into grid_changes (user_id, what) values (r ->> tg_argv[i], tg_table_name);
      end loop;
      return null;
    end $fn$`.execute(db);
  await sql`create function grid_reset() returns trigger language plpgsql as $fn$
    begin
      insert into grid_changes (user_id, what) values ('*', tg_table_name);
      return null;
    end $fn$`.execute(db);
  for (const [i, t] of TABLES.entries()) {
    const args = t.ids.map((c) => `'${c}'`).join(', ');
    const when = t.when ? `when (${t.when})` : '';
    await sql
      .raw(
        `create trigger grid_changed_${i} after ${t.events} on ${t.table} for each row ${when} execute function grid_changed(${args})`,
      )
      .execute(db);
  }
  for (const table of new Set(TABLES.map((t) => t.table))) {
    await sql
      .raw(`create trigger grid_reset after truncate on ${table} for each statement execute function grid_reset()`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [i, t] of TABLES.entries()) await sql.raw(`drop trigger grid_changed_${i} on ${t.table}`).execute(db);
  for (const table of new Set(TABLES.map((t) => t.table))) await sql.raw(`drop trigger grid_reset on ${table}`).execute(db);
  await sql`drop function grid_reset()`.execute(db);
  await sql`drop function grid_changed()`.execute(db);
  await sql`drop table grid_changes`.execute(db);
}
