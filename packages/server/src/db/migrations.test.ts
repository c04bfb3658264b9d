import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, openTestDatabase } from '../../test/harness.ts';
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
});
