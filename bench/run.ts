import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { coldStart } from './cold-start.ts';

/** `npm run bench`: runs every benchmark and writes bench/results/latest.json. */
const results = [await coldStart(process.argv.includes('--quick') ? 1 : 3)];
const dir = path.join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
const file = path.join(dir, 'latest.json');
writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
for (const r of results)
  console.log(`${r.name}: median ${r.median.toFixed(0)} ${r.unit} (${r.samples.map((s) => s.toFixed(0)).join(', ')})`);
