// Prints the security scoreboard the test tiers recorded in .scoreboard/ (see packages/server/test/security/scoreboard.ts).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export const SCOREBOARD_DIR = path.resolve(import.meta.dirname, '..', '.scoreboard');

/** Forgets the last run's figures, so the table shows only what this run measured. */
export function clearScoreboard() {
  rmSync(SCOREBOARD_DIR, { recursive: true, force: true });
}

/** The table as text, and whether every recorded figure is at its goal. */
export function scoreboardTable() {
  const rows = existsSync(SCOREBOARD_DIR)
    ? readdirSync(SCOREBOARD_DIR)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(readFileSync(path.join(SCOREBOARD_DIR, f), 'utf8')))
        .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }) || (a.db ?? '').localeCompare(b.db ?? ''))
    : [];
  const lines = [
    '| # | measure | database | figure | goal | pass |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.id} | ${r.measure} | ${r.db ?? '—'} | ${r.figure} | ${r.goal} | ${r.pass ? 'pass' : 'FAIL'} |`),
  ];
  return {
    text: rows.length ? lines.join('\n') : '(no figures recorded)',
    allPass: rows.every((r) => r.pass),
    count: rows.length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(scoreboardTable().text);
