import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

/** Open connections to this database, or null where the engine keeps no such list (PGlite). */
export async function connectionCount(db: Db): Promise<number | null> {
  try {
    const r = await sql<{ n: string | number }>`
      select count(*) as n from pg_stat_activity where datname = current_database()`.execute(db);
    const n = Number(r.rows[0]?.n ?? 0);
    return n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** The database's size on disk in MB, or null where the engine cannot say. */
export async function databaseSizeMb(db: Db): Promise<number | null> {
  try {
    const r = await sql<{ bytes: string | number }>`select pg_database_size(current_database()) as bytes`.execute(db);
    return Math.round(Number(r.rows[0]?.bytes ?? 0) / 104_857.6) / 10;
  } catch {
    return null;
  }
}
