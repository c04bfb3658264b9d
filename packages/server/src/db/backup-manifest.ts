import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What a backup holds, written last into its folder as manifest.json (a folder without one is not a
 * finished backup): each table's row count and a checksum of its rows, taken in the same snapshot
 * as the dump; each stored file (photos, screenshots) with its size and SHA-256; the dump's own
 * SHA-256. A restore checks the dump before loading it and every figure after.
 */
export interface Manifest {
  format: 'fmk-backup/1';
  createdAt: string;
  database: {
    kind: 'postgres' | 'pglite';
    /** The dump's file name in the backup folder. */
    file: string;
    bytes: number;
    sha256: string;
    tables: Record<string, TableStat>;
  };
  files: { count: number; bytes: number; entries: Record<string, FileStat> };
}

export interface TableStat {
  rows: number;
  /** The sum of a 60-bit slice of each row's MD5 (order-free, so a restore's row order does not matter). */
  checksum: string;
}

export interface FileStat {
  bytes: number;
  sha256: string;
}

export const MANIFEST = 'manifest.json';
export const FILES = 'files';

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Runs one query and answers its rows (a pg client's, or PGlite's). */
export type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

/**
 * Every table of the current schema with its row count and checksum. Rows are printed as text
 * under fixed settings (UTC, ISO dates), so the same rows give the same checksum on any server.
 */
export async function tableStats(query: Query): Promise<Record<string, TableStat>> {
  await query("set timezone = 'UTC'");
  await query("set datestyle = 'ISO, MDY'");
  await query('set extra_float_digits = 1');
  const tables = await query(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname = current_schema() order by 1`,
  );
  const out: Record<string, TableStat> = {};
  for (const { name } of tables) {
    const quoted = `"${String(name).replaceAll('"', '""')}"`;
    const [row] = await query(
      `select count(*)::int as rows,
              coalesce(sum(('x' || left(md5(t::text), 15))::bit(60)::bigint), 0)::text as checksum
       from ${quoted} t`,
    );
    out[String(name)] = { rows: Number(row?.rows ?? 0), checksum: String(row?.checksum ?? '0') };
  }
  return out;
}

/** Every file under `root` (relative paths with forward slashes), sorted. */
async function walk(root: string, sub = ''): Promise<string[]> {
  if (!existsSync(path.join(root, sub))) return [];
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await walk(root, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/** Size and SHA-256 of every file under `root`. */
export async function fileStats(root: string): Promise<Manifest['files']> {
  const entries: Record<string, FileStat> = {};
  let bytes = 0;
  for (const rel of await walk(root)) {
    const data = await readFile(path.join(root, rel));
    entries[rel] = { bytes: data.length, sha256: sha256(data) };
    bytes += data.length;
  }
  return { count: Object.keys(entries).length, bytes, entries };
}

/**
 * Copies every file under `from` to `to` (made if missing) and answers what it copied: each file
 * read once, hashed and written. `expected`: a restore checks each file against the manifest first.
 */
export async function copyFiles(from: string, to: string, expected?: Manifest['files']): Promise<Manifest['files']> {
  const entries: Record<string, FileStat> = {};
  let bytes = 0;
  for (const rel of await walk(from)) {
    // Half-written uploads (the storage's temporary names) are not files yet.
    if (rel.endsWith('.tmp')) continue;
    const data = await readFile(path.join(from, rel));
    const stat = { bytes: data.length, sha256: sha256(data) };
    const want = expected?.entries[rel];
    if (expected && (!want || want.sha256 !== stat.sha256)) throw new Error(`backup file ${rel} does not match its manifest`);
    await mkdir(path.dirname(path.join(to, rel)), { recursive: true });
    await writeFile(path.join(to, rel), data);
    entries[rel] = stat;
    bytes += data.length;
  }
  return { count: Object.keys(entries).length, bytes, entries };
}

/** A restore's check: what the manifest promised against what the restored database and folder hold. */
export interface RestoreCheck {
  rows: { backedUp: number; restored: number };
  tables: { backedUp: number; restored: number };
  files: { backedUp: number; restored: number };
  /** Each difference, in words (none: the restore is whole). */
  mismatches: string[];
}

export function compare(manifest: Manifest, tables: Record<string, TableStat>, files: Manifest['files']): RestoreCheck {
  const mismatches: string[] = [];
  const want = manifest.database.tables;
  for (const [name, stat] of Object.entries(want)) {
    const got = tables[name];
    if (!got) mismatches.push(`table ${name} is missing`);
    else if (got.rows !== stat.rows) mismatches.push(`table ${name}: ${got.rows} rows, the backup had ${stat.rows}`);
    else if (got.checksum !== stat.checksum) mismatches.push(`table ${name}: the rows differ from the backup's`);
  }
  for (const name of Object.keys(tables)) if (!want[name]) mismatches.push(`table ${name} was not in the backup`);
  for (const [rel, stat] of Object.entries(manifest.files.entries)) {
    const got = files.entries[rel];
    if (!got) mismatches.push(`file ${rel} is missing`);
    else if (got.sha256 !== stat.sha256) mismatches.push(`file ${rel} differs from the backup's`);
  }
  const sum = (t: Record<string, TableStat>) => Object.values(t).reduce((n, s) => n + s.rows, 0);
  const restoredRows = Object.entries(tables)
    .filter(([name, s]) => want[name]?.rows === s.rows && want[name]?.checksum === s.checksum)
    .reduce((n, [, s]) => n + s.rows, 0);
  const restoredFiles = Object.entries(manifest.files.entries).filter(
    ([rel, s]) => files.entries[rel]?.sha256 === s.sha256,
  ).length;
  return {
    rows: { backedUp: sum(want), restored: restoredRows },
    tables: { backedUp: Object.keys(want).length, restored: Object.keys(want).filter((n) => tables[n]).length },
    files: { backedUp: manifest.files.count, restored: restoredFiles },
    mismatches,
  };
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  await writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

export async function readManifest(dir: string): Promise<Manifest> {
  const file = path.join(dir, MANIFEST);
  if (!existsSync(file)) throw new Error(`${dir} holds no ${MANIFEST}: not a finished backup`);
  const m = JSON.parse(await readFile(file, 'utf8')) as Manifest;
  if (m.format !== 'fmk-backup/1') throw new Error(`${file}: unknown backup format ${String(m.format)}`);
  return m;
}
