import path from 'node:path';
import { ConfigError, loadConfig } from '../platform/config.ts';
import { backup, restore } from './backup.ts';

/**
 * `npm run backup -- <dir>` and `npm run restore -- <dir>` (README "Backup and restore"): the
 * configured database (DATABASE_URL, or the embedded one in DATA_DIR/db) and DATA_DIR/files.
 */
async function main(): Promise<void> {
  const [command, given] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !given) {
    console.error('Usage: npm run backup -- <folder>   |   npm run restore -- <folder>');
    process.exit(2);
  }
  // A relative folder is the one the command was typed in (npm moves a workspace script into its package).
  const dir = path.resolve(process.env.INIT_CWD || process.cwd(), given);
  const config = loadConfig();
  const target = { databaseUrl: config.databaseUrl, dbDir: config.dbDir, filesDir: config.filesDir };
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dbDir}`;
  if (command === 'backup') {
    const m = await backup(target, dir);
    const tables = Object.values(m.database.tables);
    console.log(
      `Backed up ${where}: ${tables.reduce((n, t) => n + t.rows, 0)} rows in ${tables.length} tables, ` +
        `${m.files.count} files (${(m.files.bytes / 1e6).toFixed(1)} MB) from ${config.filesDir} into ${dir}`,
    );
    return;
  }
  const check = await restore(target, dir);
  console.log(
    `Restored into ${where}: ${check.rows.restored} / ${check.rows.backedUp} rows, ` +
      `${check.tables.restored} / ${check.tables.backedUp} tables, ${check.files.restored} / ${check.files.backedUp} files into ${config.filesDir}`,
  );
  if (check.mismatches.length) {
    console.error(`The restore differs from the backup:\n  ${check.mismatches.join('\n  ')}`);
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError || err instanceof Error ? err.message : err);
  process.exit(1);
});
