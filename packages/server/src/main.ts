import { performance } from 'node:perf_hooks';
import { createApp } from './app.ts';
import { assertDurable, DurabilityError } from './db/durability.ts';
import { migrateToLatest, openDatabase } from './db/index.ts';
import { ConfigError, loadConfig } from './platform/config.ts';

/** Starts the server: config, database (migrated), HTTP; and stops it cleanly on a signal. */
async function main(): Promise<void> {
  const started = performance.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dbDir });
  try {
    // Before anything is written: a PostgreSQL that may lose acknowledged writes is refused (db/durability.ts).
    await assertDurable(database, { allowUnsafe: config.allowUnsafeDurability, warn: (m) => console.warn(m) });
  } catch (err) {
    if (!(err instanceof DurabilityError)) throw err;
    console.error(err.message);
    await database.close();
    process.exit(1);
  }
  await migrateToLatest(database.db);
  const app = await createApp({ config, database });
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { url: config.publicUrl, database: database.kind, startupMs: Math.round(performance.now() - started) },
    `FMK is running on ${config.publicUrl}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
