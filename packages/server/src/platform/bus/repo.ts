import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/**
 * The sending half of the bus across instances (PgBus in platform/bus.ts): NOTIFY on the channel
 * every instance LISTENs on, through the pool. The LISTEN stays in bus.ts on its own dedicated
 * connection, which a pool cannot give.
 */
export async function notifyAll(db: Db, channel: string, payloads: readonly string[]): Promise<void> {
  // One statement: notifications of one transaction arrive in order. Its commit does not wait for
  // the WAL flush (synchronous_commit off for this transaction alone): it writes no data, a
  // notification is never durable anyway (one in flight at a crash is lost either way), and each
  // event otherwise cost a flush of its own beside the write it follows.
  await sql`select set_config('synchronous_commit', 'off', true), ${sql.join(
    payloads.map((p) => sql`pg_notify(${channel}, ${p})`),
  )}`.execute(db);
}
