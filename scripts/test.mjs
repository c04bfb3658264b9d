// `npm test`: every tier, in order, and it shows every failure, not only the first.
import { spawnSync } from 'node:child_process';
import { clearScoreboard, scoreboardTable } from './scoreboard.mjs';

const steps = [
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
  ['unit (core, web)', 'npm', ['run', '-s', 'test:unit']],
  ['integration (server)', 'npm', ['run', '-s', 'test:server']],
  ['end-to-end (Chromium)', 'npm', ['run', '-s', 'test:e2e']],
];
const failed = [];
clearScoreboard();
for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const t = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  console.log(`=== ${name}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t) / 1000).toFixed(1)} s ===`);
  if (r.status !== 0) failed.push(name);
}
// The security figures the tiers measured (route coverage, probes, canaries...), as one table.
const board = scoreboardTable();
console.log(`\n=== security scoreboard (${board.count} figures) ===\n${board.text}`);
if (failed.length) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nAll test tiers passed.');
