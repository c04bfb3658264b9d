import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, openTestDatabase } from '../../test/harness.ts';
import { migrateToLatest, openDatabase } from './index.ts';
import { migrations } from './migrations/index.ts';

describe('migrations', () => {
  it('lists every migration file, sorted by timestamp', () => {
    const files = readdirSync(path.join(import.meta.dirname, 'migrations'))
      .filter((f) => /^\d{8}T\d{4}-.+\.ts$/.test(f) && !f.endsWith('.test.ts'))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(Object.keys(migrations)).toEqual(files);
  });

  it.each(DB_KINDS)(
    'apply from empty and roll back to empty on %s',
    async (kind) => {
      const database = await openTestDatabase(kind);
      try {
        const tables = await database.db.introspection.getTables();
        const names = tables.map((t) => t.name);
        for (const t of [
          'users',
          'user_settings',
          'identity_mappings',
          'banned_emails',
          'audit_log',
          'sessions',
          'prompts',
          'photos',
          'mode_events',
          'prompt_likes',
          'user_blocks',
        ]) {
          expect(names).toContain(t);
        }
        // Each down() undoes its up(): run them newest first.
        for (const name of Object.keys(migrations).reverse()) await migrations[name]!.down!(database.db);
        const left = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
        where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(database.db);
        expect(left.rows[0]!.n).toBe(0);
      } finally {
        await database.close();
      }
      // Every migration up and down again: seconds on an idle machine, more on a loaded one.
    },
    120_000,
  );

  it.runIf(DB_KINDS.includes('postgres'))(
    "migrates the connection's own schema when another schema of the database was migrated first",
    async () => {
      // A database holding another schema's migrations (a benchmark's, a test's): the default
      // schema used to see that schema's kysely_migration_lock and fail to create its own.
      const url = new URL(process.env.TEST_DATABASE_URL!);
      const name = `fmk_migrate_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url.href });
      await admin.connect();
      await admin.query(`create database ${name}`);
      try {
        url.pathname = `/${name}`;
        const setup = new pg.Client({ connectionString: url.href });
        await setup.connect();
        await setup.query('create schema other');
        await setup.end();
        const other = await openDatabase({ databaseUrl: url.href, schema: 'other' });
        await migrateToLatest(other.db, 'other');
        await other.close();
        const main = await openDatabase({ databaseUrl: url.href });
        try {
          await migrateToLatest(main.db);
          const tables = await sql<{ schema: string }>`select table_schema as schema from information_schema.tables
            where table_name = 'users' order by table_schema`.execute(main.db);
          expect(tables.rows.map((r) => r.schema)).toEqual(['other', 'public']);
          // And again: nothing is pending, so nothing fails.
          await migrateToLatest(main.db);
        } finally {
          await main.close();
        }
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    120_000,
  );
});
