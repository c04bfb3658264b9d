import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/index.ts';
import { type Bus, LocalBus, PgBus } from '../bus.ts';
import type { Config } from '../config.ts';
import { NatsBus } from './nats.ts';

/**
 * The bus this deployment uses: NATS when BUS_URL is set (docs/decisions/0014), else
 * LISTEN/NOTIFY on PostgreSQL, else in-process (PGlite is one process). A database schema scopes
 * the channel or the subjects, as suites sharing one server do.
 */
export async function createBus(
  config: Config,
  database: Pick<Database, 'kind' | 'db' | 'url' | 'schema'>,
  log?: FastifyBaseLogger,
): Promise<Bus> {
  if (config.bus) {
    return NatsBus.create({
      servers: config.bus.natsServers,
      prefix: database.schema ? `${config.bus.subjectPrefix}.${database.schema}` : config.bus.subjectPrefix,
      name: `fmk ${hostname()} ${process.pid}`,
      ...(log ? { log } : {}),
    });
  }
  if (database.kind === 'postgres' && database.url)
    return PgBus.create({ url: database.url, schema: database.schema, db: database.db, ...(log ? { log } : {}) });
  return new LocalBus();
}
