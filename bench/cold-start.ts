import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Cold start of `npm start` on an empty data folder: from spawn to the first 200 of /api/health
 * (PGlite initdb, migrations, prompt seeding). The web build is done beforehand, as after
 * `npm install && npm start` the first time.
 */
export async function coldStart(runs = 3): Promise<{ name: string; unit: string; samples: number[]; median: number }> {
  const root = path.resolve(import.meta.dirname, '..');
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-bench-'));
    const port = 18080 + i;
    const t0 = performance.now();
    const child = spawn('node', ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    try {
      for (;;) {
        if (performance.now() - t0 > 60_000) throw new Error('server did not start within 60 s');
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/health`);
          if (res.ok) break;
        } catch {
          // not listening yet
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      samples.push(performance.now() - t0);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    name: 'cold start of npm start on an empty data folder',
    unit: 'ms',
    samples,
    median: sorted[Math.floor(sorted.length / 2)]!,
  };
}
