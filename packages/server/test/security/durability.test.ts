import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import {
  assertDurable,
  DURABILITY_SETTINGS,
  DurabilityError,
  type DurabilityValues,
  readDurability,
  unsafeSettings,
} from '../../src/db/durability.ts';
import { openDatabase } from '../../src/db/index.ts';
import { DB_KINDS } from '../harness.ts';
import { recordScore } from './scoreboard.ts';

vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');

/** The database URL with libpq options for every connection (`-c name=value ...`). */
function withOptions(url: string, options: string): string {
  const u = new URL(url);
  u.searchParams.set('options', options);
  return u.toString();
}

/**
 * Starts the real server (main.ts) in a process of its own; resolves with its exit code, or
 * 'started' once its output has `until` (by default its 'running' line).
 */
function startServer(
  env: Record<string, string>,
  until = 'FMK is running',
): {
  done: Promise<{ result: number | 'started'; output: string }>;
  child: ChildProcess;
} {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-durability-'));
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      LOG_LEVEL: 'info',
      MODERATION_ENABLED: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const done = new Promise<{ result: number | 'started'; output: string }>((resolve) => {
    const read = (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes(until)) resolve({ result: 'started', output });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => resolve({ result: code ?? -1, output }));
  }).finally(() => rmSync(dataDir, { recursive: true, force: true }));
  return { done, child };
}

/**
 * The durability guard (db/durability.ts): on PostgreSQL the server refuses to start when fsync,
 * synchronous_commit or full_page_writes is off, unless ALLOW_UNSAFE_DURABILITY=true. fsync and
 * full_page_writes cannot be changed for one session, so they are tried on the decision with the
 * server's real SHOW answers; synchronous_commit is turned off for real on the connection (its
 * URL's options), and the real server is started against it.
 */
describe.each(DB_KINDS)('the durability guard on %s', (kind) => {
  it(
    kind === 'postgres' ? 'refuses a PostgreSQL that may lose acknowledged writes' : 'has nothing to guard on embedded PGlite',
    async () => {
      if (kind === 'pglite') {
        const d = await openDatabase({});
        expect(await assertDurable(d, { allowUnsafe: false, warn: () => undefined })).toEqual([]);
        await d.close();
        return;
      }
      const url = process.env.TEST_DATABASE_URL as string;
      const found: string[] = [];

      // The decision, on what this PostgreSQL really answers: durable as it is, refused with any one off.
      const durable = await openDatabase({ databaseUrl: url });
      const real: DurabilityValues = await readDurability(durable.db);
      await durable.close();
      expect(unsafeSettings(real)).toEqual([]);
      for (const name of DURABILITY_SETTINGS) {
        const off = unsafeSettings({ ...real, [name]: 'off' });
        expect(off).toEqual([`${name}=off`]);
        found.push(name);
      }
      expect(unsafeSettings({ ...real, synchronous_commit: 'local' })).toEqual([]);

      // A real connection with synchronous_commit off: its SHOW says so, and the guard refuses it.
      const lax = await openDatabase({ databaseUrl: withOptions(url, '-c synchronous_commit=off') });
      expect((await readDurability(lax.db)).synchronous_commit).toBe('off');
      const refused = await assertDurable(lax, { allowUnsafe: false, warn: () => undefined }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DurabilityError);
      expect(String((refused as Error).message)).toContain('synchronous_commit=off');
      const warned: string[] = [];
      expect(await assertDurable(lax, { allowUnsafe: true, warn: (m) => warned.push(m) })).toEqual(['synchronous_commit=off']);
      expect(warned).toHaveLength(1);
      await lax.close();

      // The real server: refused before it writes anything (in a schema of its own).
      const schema = `t_durable_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      try {
        const laxUrl = withOptions(url, `-c synchronous_commit=off -c search_path=${schema},public`);
        const stopped = await startServer({ DATABASE_URL: laxUrl }).done;
        expect(stopped.result, stopped.output).toBe(1);
        expect(stopped.output).toContain('PostgreSQL is set to lose committed data on a crash: synchronous_commit=off');
        expect(stopped.output).toContain('ALLOW_UNSAFE_DURABILITY=true');
        const tables = await admin.query('select count(*)::int as n from information_schema.tables where table_schema = $1', [
          schema,
        ]);
        expect(tables.rows[0].n).toBe(0);

        // With the flag it goes on past the guard, saying why (stopped there: what follows is any start).
        const warning = 'ALLOW_UNSAFE_DURABILITY=true: starting although synchronous_commit=off';
        const allowed = startServer({ DATABASE_URL: laxUrl, ALLOW_UNSAFE_DURABILITY: 'true' }, warning);
        const started = await allowed.done;
        const exited = allowed.child.exitCode === null ? once(allowed.child, 'exit') : Promise.resolve();
        allowed.child.kill('SIGKILL');
        await exited;
        expect(started.result, started.output).toBe('started');
        recordScore({
          id: '12-durability',
          db: kind,
          measure:
            'Durability guard: the server refuses PostgreSQL with fsync, synchronous_commit or full_page_writes off (unless ALLOW_UNSAFE_DURABILITY)',
          figure: `${found.length} / ${DURABILITY_SETTINGS.length} settings refused (${found.join(', ')}); a real start refused on synchronous_commit=off (exit 1, nothing written), let past with the flag`,
          goal: `${DURABILITY_SETTINGS.length} / ${DURABILITY_SETTINGS.length}, the real start refused`,
          pass: found.length === DURABILITY_SETTINGS.length,
        });
      } finally {
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    },
  );
});
