import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  compare,
  copyFiles,
  FILES,
  fileStats,
  type Manifest,
  type Query,
  type RestoreCheck,
  readManifest,
  sha256,
  tableStats,
  writeManifest,
} from './backup-manifest.ts';
import { PGLITE_EXTENSIONS } from './index.ts';

/**
 * Backup and restore (`npm run backup -- <dir>`, `npm run restore -- <dir>`; README "Backup and
 * restore"): the database and the stored files (DATA_DIR/files: photos, thumbnails, screenshots)
 * into one folder with a manifest (backup-manifest.ts), and back into a fresh database and folder.
 *
 * - PostgreSQL, online: pg_dump in its custom format, in the snapshot the manifest's counts were
 *   taken in (pg_export_snapshot), so the counts are the dump's exactly. The files are copied after
 *   the snapshot: a photo uploaded meanwhile is an extra file, never a row without its file.
 * - PGlite, with the server stopped (the embedded database is one process's): its data folder as
 *   PGlite dumps it (dumpDataDir, a tarball), loaded back by PGlite.create({ loadDataDir }).
 */
export interface BackupTarget {
  /** PostgreSQL's URL; unset: the embedded PGlite in `dbDir`. */
  databaseUrl: string | undefined;
  dbDir: string;
  filesDir: string;
}

const PG_DUMP_FILE = 'database.dump';
const PGLITE_FILE = 'database.tar.gz';

/** Runs a PostgreSQL client tool; the password goes in the environment, not the command line. */
function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string): Promise<void> {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${u.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c) => {
      err += String(c);
    });
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ENOENT'
          ? new Error(
              `${tool} was not found: install PostgreSQL's client tools (apt-get install postgresql-client), of the server's major version or newer`,
            )
          : e,
      ),
    );
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} failed (exit ${code}): ${err.trim()}`))));
  });
}

const pgQuery =
  (client: pg.Client): Query =>
  async (text) =>
    (await client.query(text)).rows;

const pgliteQuery =
  (db: PGlite): Query =>
  async (text) =>
    (await db.query<Record<string, unknown>>(text)).rows;

/** Backs up the database and the files into `dir` (new or empty); answers the manifest written. */
export async function backup(target: BackupTarget, dir: string): Promise<Manifest> {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: back up into a new folder`);
  await mkdir(dir, { recursive: true });
  const createdAt = new Date().toISOString();
  const database = target.databaseUrl ? await dumpPostgres(target.databaseUrl, dir) : await dumpPglite(target.dbDir, dir);
  const files = await copyFiles(target.filesDir, path.join(dir, FILES));
  const dump = await readFile(path.join(dir, database.file));
  const manifest: Manifest = {
    format: 'fmk-backup/1',
    createdAt,
    database: { ...database, bytes: dump.length, sha256: sha256(dump) },
    files,
  };
  await writeManifest(dir, manifest);
  return manifest;
}

async function dumpPostgres(url: string, dir: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0]?.id as string;
    const tables = await tableStats(pgQuery(client));
    await runTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${path.join(dir, PG_DUMP_FILE)}`], url);
    await client.query('commit');
    return { kind: 'postgres' as const, file: PG_DUMP_FILE, tables };
  } finally {
    await client.end();
  }
}

async function dumpPglite(dbDir: string, dir: string) {
  if (!existsSync(path.join(dbDir, 'PG_VERSION'))) throw new Error(`${dbDir} holds no database`);
  // PGlite keeps postmaster.pid while a process has the database open, and removes it on close.
  if (existsSync(path.join(dbDir, 'postmaster.pid'))) {
    throw new Error(
      `the database in ${dbDir} is open (postmaster.pid): stop the server first (if none runs, it stopped uncleanly: start and stop it once)`,
    );
  }
  const db = await PGlite.create(dbDir, { extensions: PGLITE_EXTENSIONS });
  try {
    const tables = await tableStats(pgliteQuery(db));
    const tar = await db.dumpDataDir('gzip');
    await writeFile(path.join(dir, PGLITE_FILE), Buffer.from(await tar.arrayBuffer()));
    return { kind: 'pglite' as const, file: PGLITE_FILE, tables };
  } finally {
    await db.close();
  }
}

/**
 * Restores the backup in `dir` into the target, which must be fresh (a database without tables,
 * a data folder without a database, no stored files), then checks every table and file against
 * the manifest. Throws on a damaged backup or a target in use; answers the check.
 */
export async function restore(target: BackupTarget, dir: string): Promise<RestoreCheck> {
  const manifest = await readManifest(dir);
  const dump = await readFile(path.join(dir, manifest.database.file));
  if (sha256(dump) !== manifest.database.sha256) throw new Error(`${manifest.database.file} does not match its manifest`);
  if ((manifest.database.kind === 'postgres') !== Boolean(target.databaseUrl)) {
    throw new Error(
      `this backup is of ${manifest.database.kind}; restore it with ${manifest.database.kind === 'postgres' ? 'DATABASE_URL set' : 'DATABASE_URL unset'}`,
    );
  }
  if (existsSync(target.filesDir) && (await fileStats(target.filesDir)).count > 0) {
    throw new Error(`${target.filesDir} already holds files: restore into a fresh data folder`);
  }
  const tables = target.databaseUrl ? await loadPostgres(target.databaseUrl, dir) : await loadPglite(target.dbDir, dump);
  await copyFiles(path.join(dir, FILES), target.filesDir, manifest.files);
  return compare(manifest, tables, await fileStats(target.filesDir));
}

async function loadPostgres(url: string, dir: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`,
    );
    if ((rows[0]?.n ?? 0) > 0) throw new Error('the database already has tables: restore into a fresh database (createdb)');
    // Owners and grants are the restoring role's: the backup's roles need not exist here.
    await runTool(
      'pg_restore',
      ['--exit-on-error', '--single-transaction', '--no-owner', '--no-privileges', path.join(dir, PG_DUMP_FILE)],
      url,
    );
    return await tableStats(pgQuery(client));
  } finally {
    await client.end();
  }
}

async function loadPglite(dbDir: string, tar: Buffer) {
  if (existsSync(path.join(dbDir, 'PG_VERSION')))
    throw new Error(`${dbDir} already holds a database: restore into a fresh data folder`);
  await mkdir(dbDir, { recursive: true });
  const db = await PGlite.create(dbDir, { extensions: PGLITE_EXTENSIONS, loadDataDir: new Blob([new Uint8Array(tar)]) });
  try {
    return await tableStats(pgliteQuery(db));
  } finally {
    await db.close();
  }
}
