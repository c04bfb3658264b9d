import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/**
 * The sending half of the bus across instances (PgBus in platform/bus.ts): NOTIFY on the channel
 * every instance LISTENs on, through the pool. The LISTEN stays in bus.ts on its own dedicated
 * connection, which a pool cannot give.
 */
export async function notifyAll(db: Db, channel: string, payloads: readonly string[]): Promise<void> {
  // One statement: notifications of one transaction arrive in order.
  await sql`select ${sql.join(payloads.map((p) => sql`pg_notify(${channel}, ${p})`))}`.execute(db);
}
