import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_KINDS, openTestDatabase } from '../../../test/harness.ts';
import { type Database, migrateToLatest, openDatabase } from '../../db/index.ts';
import { writeAudit } from '../../platform/audit/repo.ts';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../../../..');

/**
 * `npm run admin -- verify-audit` itself, as an operator runs it: against a database holding a
 * few audit rows it says the chain holds (exit 0); after one row is edited in place it names
 * the broken row (exit 1). PGlite through a data folder; PostgreSQL through a schema of its own.
 */
describe.each(DB_KINDS)('npm run admin -- verify-audit on %s', (kind) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-cli-'));
  let pgSchemaDb: Database | null = null;
  afterAll(async () => {
    await pgSchemaDb?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Opens the database the CLI will read, runs `fn` on it and closes it (PGlite allows one process at a time). */
  async function withDb(fn: (db: Database['db']) => Promise<void>): Promise<Record<string, string>> {
    if (kind === 'pglite') {
      const d = await openDatabase({ dataDir: path.join(dataDir, 'db') });
      await migrateToLatest(d.db);
      await fn(d.db);
      await d.close();
      return { DATA_DIR: dataDir };
    }
    pgSchemaDb ??= await openTestDatabase('postgres');
    await fn(pgSchemaDb.db);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${pgSchemaDb.schema}`);
    return { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
  }

  async function verify(env: Record<string, string>): Promise<{ code: number; out: string }> {
    const { DATABASE_URL: _ignored, ...parent } = process.env;
    try {
      const r = await run('npm', ['run', '-s', 'admin', '--', 'verify-audit'], {
        cwd: REPO,
        env: { ...parent, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
        timeout: 120_000,
      });
      return { code: 0, out: r.stdout + r.stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  }

  it('exits 0 on an intact chain and 1, naming the row, once a row is edited', async () => {
    const now = new Date('2026-11-20T10:00:00Z');
    const env = await withDb(async (db) => {
      for (const [i, action] of ['content_approve', 'location_reject', 'prompt_edit'].entries())
        await writeAudit(db, {
          adminId: 'staff-1',
          action,
          targetType: 'x',
          targetId: `t${i}`,
          reason: `reason ${i}`,
          ip: '203.0.113.9',
          now: new Date(now.getTime() + i * 1000),
        });
    });
    const intact = await verify(env);
    expect(intact.out).toContain('Audit log intact: 3 rows, hash chain holds.');
    expect(intact.code).toBe(0);

    let tampered = '';
    await withDb(async (db) => {
      const row = await db.selectFrom('audit_log').select('id').where('target_id', '=', 't1').executeTakeFirstOrThrow();
      tampered = String(row.id);
      await db.updateTable('audit_log').set({ reason: 'nothing to see' }).where('id', '=', row.id).execute();
    });
    const broken = await verify(env);
    expect(broken.out).toContain(`Audit log BROKEN at row ${tampered}: the row was changed`);
    expect(broken.code).toBe(1);
  }, 300_000);
});
