import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { coldStart } from './cold-start.ts';
import { gameBench } from './game.ts';
import { gridBench } from './grid.ts';
import { messagingBench } from './messaging.ts';

/**
 * `npm run bench [-- --quick] [-- --grid-only]`: runs the benchmarks and writes
 * bench/results/latest.json, keeping earlier results of benchmarks not run this time.
 */
const quick = process.argv.includes('--quick');
const gridOnly = process.argv.includes('--grid-only');
const results: { name: string; unit: string; samples: number[]; median: number }[] = [];
if (!gridOnly) results.push(await coldStart(quick ? 1 : 3));
// Selection + match throughput on PostgreSQL (issue 4); needs a PostgreSQL (BENCH_DATABASE_URL).
if (!gridOnly) results.push(await gameBench({ runs: quick ? 1 : 3 }));
// Messaging (issue 5): send→receive latency over the live channel vs a bare ws floor; PostgreSQL.
if (!gridOnly) results.push(await messagingBench(quick ? { sockets: 500, rate: 50, seconds: 15 } : {}));
// The grid (issue 4): PostgreSQL at 1 M users (100 k with --quick), PGlite at 100 k.
results.push(await gridBench({ database: 'postgres', users: quick ? 100_000 : 1_000_000, requests: quick ? 2000 : 5000 }));
results.push(await gridBench({ database: 'pglite', users: 100_000, requests: quick ? 500 : 1000 }));
const dir = path.join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, 'latest.json');
const earlier: { name: string }[] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).results : [];
const kept = earlier.filter((e) => !results.some((r) => r.name === e.name));
writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), results: [...kept, ...results] }, null, 2)}\n`);
for (const r of results)
  console.log(`${r.name}: median ${r.median.toFixed(0)} ${r.unit} (${r.samples.map((s) => s.toFixed(0)).join(', ')})`);
