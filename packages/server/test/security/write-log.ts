import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../../src/db/index.ts';

/**
 * What the database committed, row by row, as the fuzzer sends request after request: every table
 * of the app's schema gets an AFTER trigger that NOTIFYs one channel with '<table> <operation>'
 * for each row written (and each TRUNCATE). A notification is sent only when its transaction
 * commits, so a write rolled back is not one, and reading them costs the app's queries nothing:
 * on PGlite they arrive in-process with the result of the statement that committed, on
 * PostgreSQL on a connection of their own, flushed by one round trip (`sync`).
 *
 * This replaces fingerprinting every table (a count and a max(updated_at) per table, about 90
 * sub-selects) between requests: that cost as much as a request, so it could only be afforded
 * once per hundred, and it missed an update that left updated_at alone.
 */
export interface WriteLog {
  /** Waits until every notification committed so far has arrived (a round trip on PostgreSQL). */
  sync(): Promise<void>;
  /** The writes ('table OPERATION') seen since the last take, oldest first. */
  take(): string[];
  close(): Promise<void>;
}

/** Creates the triggers in the database's current schema; `skip` names tables whose writes are not looked at. */
export async function installWriteLog(
  db: Db,
  target: { pglite: PGlite } | { url: string },
  skip: ReadonlySet<string> = new Set(),
): Promise<WriteLog> {
  const channel = `fuzz_writes_${randomBytes(6).toString('hex')}`;
  const fn = sql.id(`${channel}_fn`);
  await sql`create function ${fn}() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(channel)}, tg_table_name || ' ' || tg_op);
      return null;
    end $$`.execute(db);
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  for (const { name } of tables.rows) {
    // The grid's change log is written by triggers of the tables it watches (migration
    // 20261130T0100): a row there always comes with the write that caused it, which is seen.
    if (skip.has(name) || name === 'grid_changes') continue;
    await sql`create trigger ${sql.id(`${channel}_row`)} after insert or update or delete on ${sql.table(name)}
      for each row execute function ${fn}()`.execute(db);
    await sql`create trigger ${sql.id(`${channel}_truncate`)} after truncate on ${sql.table(name)}
      for each statement execute function ${fn}()`.execute(db);
  }

  const seen: string[] = [];
  const onWrite = (payload: string) => {
    seen.push(payload);
  };
  const take = () => seen.splice(0, seen.length);
  if ('pglite' in target) {
    // PGlite is one session: the app's own commits notify it, and it hands each notification to
    // the callback while it reads that statement's result, before the app's await resumes.
    const unlisten = await target.pglite.listen(channel, onWrite);
    return { sync: async () => {}, take, close: () => unlisten() };
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  client.on('notification', (n) => onWrite(n.payload ?? ''));
  await client.query(`listen ${channel}`);
  return {
    // A committing backend signals the listeners before its client hears of the commit, and a
    // listener sends what it was signalled before it answers its next query: after this round
    // trip, every write committed before it started has been seen.
    sync: async () => {
      await client.query('select 1');
    },
    take,
    close: () => client.end(),
  };
}

/**
 * A refusal is a 4xx other than 402: a declined payment is a processed attempt, recorded as one
 * (its payment row and idempotency key are what make a retry charge at most once).
 */
export const refused = (status: number) => status >= 400 && status < 500 && status !== 402;

/** Waits until nothing has been written for `quietMs`: the background work of served requests has ended. */
export async function quiet(log: WriteLog, quietMs = 50, maxMs = 30_000): Promise<void> {
  const end = Date.now() + maxMs;
  let since = Date.now();
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 10));
    await log.sync();
    if (log.take().length > 0) since = Date.now();
    else if (Date.now() - since >= quietMs) return;
  }
  throw new Error(`the database was still being written after ${maxMs} ms`);
}

/**
 * The writes of a refused request that seemed to write: a served request's background work (an
 * archive building, a mail being recorded) commits when it commits, so what arrived during the
 * refused one may not be its own. Once everything else has been quiet for a while it is sent
 * again, alone, twice (an archive's build can pause longer than any quiet spell on a loaded
 * machine): what both write is its own. A request served either time proves nothing: [].
 */
export async function ownWrites(log: WriteLog, resend: () => Promise<{ statusCode: number }>): Promise<string[]> {
  let own: string[] | null = null;
  for (let i = 0; i < 2; i++) {
    await quiet(log, 300);
    const res = await resend();
    await log.sync();
    const wrote = log.take();
    if (!refused(res.statusCode)) return [];
    own = own === null ? wrote : own.filter((w) => wrote.includes(w));
    if (own.length === 0) return [];
  }
  return own ?? [];
}
