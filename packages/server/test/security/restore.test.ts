import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fixedClock } from '@fmk/core';
import pg from 'pg';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.ts';
import { type BackupTarget, backup, restore } from '../../src/db/backup.ts';
import { fileStats, type Query, tableStats } from '../../src/db/backup-manifest.ts';
import { PGLITE_EXTENSIONS } from '../../src/db/index.ts';
import { signUpMember } from '../factories.ts';
import { DB_KINDS, type DbKind, openMigratedDatabase, testConfig } from '../harness.ts';
import { fullMember } from '../member.ts';
import { multipartFile } from '../multipart.ts';
import { recordScore } from './scoreboard.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });

const ENV = { MODERATION_ENABLED: 'false' };

const jpeg = (colour: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

/** A database of its own for the drill: on PostgreSQL a new database beside the test one (PGlite's is the config's folder). */
async function freshDatabase(kind: DbKind): Promise<{ url: string | undefined; drop: () => Promise<void> }> {
  if (kind === 'pglite') return { url: undefined, drop: async () => undefined };
  const base = new URL(process.env.TEST_DATABASE_URL as string);
  const name = `${base.pathname.slice(1)}_drill_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Every table's rows and checksum, read straight from a database (not from any manifest). */
async function readTables(url: string | undefined, dbDir: string) {
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const stats = await tableStats((async (text: string) => (await client.query(text)).rows) as Query);
    await client.end();
    return stats;
  }
  const db = await PGlite.create(dbDir, { extensions: PGLITE_EXTENSIONS });
  const stats = await tableStats(async (text) => (await db.query<Record<string, unknown>>(text)).rows);
  await db.close();
  return stats;
}

/**
 * The restore drill: members with a row in every category and their photos and screenshots are
 * written through the real app; `backup` copies the database and the files; `restore` puts them
 * into a fresh database and data folder; then every table (rows and checksum) and every file
 * (SHA-256) is read from both sides and compared, apart from the manifest that promised them.
 */
describe.each(DB_KINDS)('backup and restore on %s', (kind) => {
  it('restores every row and every file into a fresh database and data folder', async () => {
    const source = testConfig(ENV);
    const copy = testConfig(ENV);
    const backupDir = path.join(mkdtempSync(path.join(tmpdir(), 'fmk-backup-')), 'backup');
    const from = await freshDatabase(kind);
    const to = await freshDatabase(kind);
    let app: Awaited<ReturnType<typeof createApp>> | null = null;
    try {
      const database = await openMigratedDatabase(kind, from.url, source.dbDir);
      const clock = fixedClock('2026-06-01T12:00:00Z');
      app = await createApp({ config: source, database, clock, logger: false });
      await app.ready();
      // A member with a row in every category, and a few more men with a profile photo each.
      await fullMember({ app, db: database.db, config: source, clock });
      for (let i = 0; i < 3; i++) {
        const man = await signUpMember(app, database.db);
        const file = multipartFile(await jpeg(`#${i}${i}9`));
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/me/photos',
          headers: { ...man.headers, ...file.headers },
          payload: file.payload,
        });
        expect(res.statusCode, res.body).toBe(201);
      }
      await app.notifier.settle();
      await app.close();
      app = null;

      const sourceTarget: BackupTarget = { databaseUrl: from.url, dbDir: source.dbDir, filesDir: source.filesDir };
      const manifest = await backup(sourceTarget, backupDir);
      const check = await restore({ databaseUrl: to.url, dbDir: copy.dbDir, filesDir: copy.filesDir }, backupDir);

      // Read both sides again, each on its own, and compare them table by table and file by file.
      const [before, after] = [await readTables(from.url, source.dbDir), await readTables(to.url, copy.dbDir)];
      const [filesBefore, filesAfter] = [await fileStats(source.filesDir), await fileStats(copy.filesDir)];
      const rows = Object.values(before).reduce((n, s) => n + s.rows, 0);
      const sameRows = Object.entries(before)
        .filter(([name, s]) => after[name]?.rows === s.rows && after[name]?.checksum === s.checksum)
        .reduce((n, [, s]) => n + s.rows, 0);
      const sameFiles = Object.entries(filesBefore.entries).filter(
        ([rel, f]) => filesAfter.entries[rel]?.sha256 === f.sha256,
      ).length;
      const photos = Object.keys(filesBefore.entries).filter((f) => f.startsWith('photos/')).length;
      recordScore({
        id: '12-restore',
        db: kind,
        measure:
          'Backup and restore drill: rows and stored files found in a fresh database and data folder after npm run backup / restore',
        figure: `${sameRows} / ${rows} rows (${Object.keys(after).length} / ${Object.keys(before).length} tables), ${sameFiles} / ${filesBefore.count} files (${photos} photos)`,
        goal: 'every row and every file',
        pass: sameRows === rows && sameFiles === filesBefore.count && check.mismatches.length === 0,
      });
      expect(check.mismatches).toEqual([]);
      expect(after).toEqual(before);
      expect(filesAfter.entries).toEqual(filesBefore.entries);
      // The manifest told the same story, and the drill was not of an empty database.
      expect(manifest.database.tables).toEqual(before);
      expect(check.rows).toEqual({ backedUp: rows, restored: rows });
      expect(before.users?.rows).toBeGreaterThanOrEqual(7);
      expect(before.messages?.rows).toBeGreaterThanOrEqual(3);
      expect(photos).toBeGreaterThanOrEqual(5);
      expect(filesBefore.count).toBeGreaterThan(photos);

      // A restore never lands on data: the same backup into the now filled target is refused.
      await expect(restore({ databaseUrl: to.url, dbDir: copy.dbDir, filesDir: copy.filesDir }, backupDir)).rejects.toThrow(
        /already holds|already has tables/,
      );
    } finally {
      await app?.close().catch(() => undefined);
      await from.drop();
      await to.drop();
      for (const d of [source.dataDir, copy.dataDir, path.dirname(backupDir)]) rmSync(d, { recursive: true, force: true });
    }
  });
});
