import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The security scoreboard: each security test records its figure here (one JSON file per figure
 * and database), and `npm test` prints them all as one table at the end, so a regression shows as
 * a number, not only as a red test. The files live in <repo>/.scoreboard (ignored by git).
 */
export interface ScoreRow {
  /** Short, stable id: the file name and the table's order. */
  id: string;
  /** What is measured, in words. */
  measure: string;
  /** The figure, e.g. '231 / 231 routes' or '0 successes in 1,432 probes'. */
  figure: string;
  goal: string;
  pass: boolean;
  /** The database the figure was measured on, when it depends on one. */
  db?: string;
}

export const SCOREBOARD_DIR = path.resolve(import.meta.dirname, '../../../../.scoreboard');

export function recordScore(row: ScoreRow): void {
  mkdirSync(SCOREBOARD_DIR, { recursive: true });
  const file = `${row.id}${row.db ? `-${row.db}` : ''}.json`.replace(/[^\w.-]/g, '_');
  writeFileSync(path.join(SCOREBOARD_DIR, file), `${JSON.stringify(row, null, 2)}\n`);
}
