import { sql } from 'kysely';
import type { Database, Db } from './index.ts';

/**
 * The durability guard: PostgreSQL settings under which a crash (of the server, the machine or
 * its power) loses or corrupts data the app has already told a member was saved. A message
 * acknowledged with 201 must survive; so the server refuses to start on such a database unless
 * ALLOW_UNSAFE_DURABILITY=true says the loss is accepted (a throwaway test database).
 *
 * - `fsync = off`: commits are not forced to disk; a power loss can corrupt the whole cluster.
 * - `synchronous_commit = off`: a commit is answered before its WAL is on disk; a crash loses the
 *   last commits (up to three times wal_writer_delay). `local`, `remote_write`, `on` and
 *   `remote_apply` all wait for the local disk.
 * - `full_page_writes = off`: a page torn by a crash mid-write cannot be repaired from the WAL.
 *
 * PGlite is embedded: it runs in the server's own process, so these are not the deployment's to set.
 */
export const DURABILITY_SETTINGS = ['fsync', 'synchronous_commit', 'full_page_writes'] as const;
export type DurabilitySetting = (typeof DURABILITY_SETTINGS)[number];
export type DurabilityValues = Record<DurabilitySetting, string>;

/** The three settings as PostgreSQL's SHOW answers them on this connection. */
export async function readDurability(db: Db): Promise<DurabilityValues> {
  const show = async (name: DurabilitySetting) => {
    const { rows } = await sql<Record<string, string>>`show ${sql.raw(name)}`.execute(db);
    return String(Object.values(rows[0] ?? {})[0] ?? '');
  };
  return {
    fsync: await show('fsync'),
    synchronous_commit: await show('synchronous_commit'),
    full_page_writes: await show('full_page_writes'),
  };
}

/** The settings that let a crash lose acknowledged data, as `name=value` (none: durable). */
export function unsafeSettings(values: DurabilityValues): string[] {
  return DURABILITY_SETTINGS.filter((k) => values[k].trim().toLowerCase() === 'off').map((k) => `${k}=${values[k]}`);
}

export class DurabilityError extends Error {
  override name = 'DurabilityError';
}

/** The refusal, naming each setting and both ways out. */
export function durabilityMessage(unsafe: string[]): string {
  return (
    `PostgreSQL is set to lose committed data on a crash: ${unsafe.join(', ')}. ` +
    'Turn each back on (postgresql.conf, or ALTER SYSTEM SET <name> = on; then SELECT pg_reload_conf(); ' +
    'check the database URL\'s "options" and the role\'s settings too), or set ALLOW_UNSAFE_DURABILITY=true ' +
    'to start anyway on a database whose loss does not matter.'
  );
}

/**
 * Refuses (throws DurabilityError) when the database may lose acknowledged data, unless
 * `allowUnsafe`; then it only warns. Answers the unsafe settings found (none on PGlite).
 */
export async function assertDurable(
  database: Pick<Database, 'db' | 'kind'>,
  opts: { allowUnsafe: boolean; warn: (message: string) => void },
): Promise<string[]> {
  if (database.kind !== 'postgres') return [];
  const unsafe = unsafeSettings(await readDurability(database.db));
  if (unsafe.length === 0) return unsafe;
  if (!opts.allowUnsafe) throw new DurabilityError(durabilityMessage(unsafe));
  opts.warn(`ALLOW_UNSAFE_DURABILITY=true: starting although ${unsafe.join(', ')} (a crash may lose acknowledged writes)`);
  return unsafe;
}
