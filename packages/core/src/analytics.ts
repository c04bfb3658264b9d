import { z } from 'zod';

// The admin analytics (spec section 2): retention by weekly sign-up cohort, the funnel from
// sign-up to a first message, and the mode and tier mix. The server reads raw counts in SQL;
// these pure functions shape them, so the percentages are computed and tested in one place.

const WEEK_MS = 7 * 86_400_000;

/** Members who signed up in the week starting `cohort` (a Monday, YYYY-MM-DD). */
export interface CohortSizeRow {
  cohort: string;
  size: number;
}
/** Members of a cohort active in its `week`-th week after sign-up (0 = the sign-up week). */
export interface CohortActiveRow {
  cohort: string;
  week: number;
  active: number;
}

export const cohortSchema = z.object({
  cohort: z.string(),
  size: z.number(),
  weeks: z.array(z.object({ week: z.number(), active: z.number(), percent: z.number() })),
});
export type Cohort = z.infer<typeof cohortSchema>;

/** A share as a percentage with one decimal; nothing of nothing is 0. */
export const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * One row a cohort, newest first, with every week from its sign-up week to `currentWeek`
 * (a missing count is 0 active, never a missing week); a cohort of nobody is left out.
 */
export function shapeCohorts(
  sizes: readonly CohortSizeRow[],
  actives: readonly CohortActiveRow[],
  currentWeek: string,
): Cohort[] {
  const active = new Map(actives.map((r) => [`${r.cohort}/${r.week}`, r.active]));
  const now = Date.parse(`${currentWeek}T00:00:00Z`);
  return sizes
    .filter((s) => s.size > 0 && Date.parse(`${s.cohort}T00:00:00Z`) <= now)
    .sort((a, b) => b.cohort.localeCompare(a.cohort))
    .map((s) => {
      const weeks = Math.floor((now - Date.parse(`${s.cohort}T00:00:00Z`)) / WEEK_MS) + 1;
      return {
        cohort: s.cohort,
        size: s.size,
        weeks: Array.from({ length: weeks }, (_, week) => {
          const n = Math.min(s.size, active.get(`${s.cohort}/${week}`) ?? 0);
          return { week, active: n, percent: percent(n, s.size) };
        }),
      };
    });
}

export const FUNNEL_STEPS = [
  { step: 'signedUp', label: 'Signed up' },
  { step: 'onboarded', label: 'Onboarding complete' },
  { step: 'matched', label: 'First match' },
  { step: 'messaged', label: 'First message' },
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number]['step'];

export const funnelStepSchema = z.object({
  step: z.enum(['signedUp', 'onboarded', 'matched', 'messaged']),
  label: z.string(),
  count: z.number(),
  /** Of the step before (100 for the first). */
  ofPrevious: z.number(),
  /** Of everyone who signed up. */
  ofSignedUp: z.number(),
});
export type FunnelRow = z.infer<typeof funnelStepSchema>;

/**
 * The funnel's steps with their conversion. Each step counts members who reached it and every
 * step before (a member who messaged without finishing onboarding is not counted past it), so the
 * counts never rise from one step to the next.
 */
export function shapeFunnel(counts: Record<FunnelStep, number>): FunnelRow[] {
  let previous = counts.signedUp;
  return FUNNEL_STEPS.map(({ step, label }, i) => {
    const count = i === 0 ? counts[step] : Math.min(previous, counts[step]);
    const row = {
      step,
      label,
      count,
      ofPrevious: i === 0 ? 100 : percent(count, previous),
      ofSignedUp: percent(count, counts.signedUp),
    };
    previous = count;
    return row;
  });
}

export const mixRowSchema = z.object({ key: z.string(), count: z.number(), percent: z.number() });
export type MixRow = z.infer<typeof mixRowSchema>;

/** Counts by key with their shares, every known key present (a zero when none), largest first. */
export function shapeMix(rows: readonly { key: string; count: number }[], known: readonly string[]): MixRow[] {
  const by = new Map<string, number>(known.map((k) => [k, 0]));
  for (const r of rows) by.set(r.key, (by.get(r.key) ?? 0) + r.count);
  const total = [...by.values()].reduce((a, b) => a + b, 0);
  return [...by.entries()]
    .map(([key, count]) => ({ key, count, percent: percent(count, total) }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

export const analyticsSchema = z.object({
  /** The Monday of the current week (UTC) and of the oldest cohort shown. */
  currentWeek: z.string(),
  from: z.string(),
  activeMeans: z.string(),
  cohorts: z.array(cohortSchema),
  funnel: z.array(funnelStepSchema),
  modeMix: z.array(mixRowSchema),
  tierMix: z.array(mixRowSchema),
});
export type Analytics = z.infer<typeof analyticsSchema>;

export const ANALYTICS_EXPORTS = ['cohorts', 'funnel', 'mix'] as const;
export const analyticsExportQuery = z.object({
  kind: z.enum(ANALYTICS_EXPORTS, { error: 'kind must be one of cohorts, funnel, mix' }),
});

/**
 * One CSV field: quoted when it holds a comma, quote or line break (quotes doubled), and a text
 * that a spreadsheet would run as a formula (= + - @ first) is prefixed with an apostrophe.
 */
export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows to CSV text (CRLF line ends, as RFC 4180 has them), the header first. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return `${[header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** An analytics export as CSV: counts and shares only, never a member. */
export function analyticsCsv(kind: (typeof ANALYTICS_EXPORTS)[number], a: Analytics): string {
  if (kind === 'funnel')
    return toCsv(
      ['step', 'members', 'percent_of_previous', 'percent_of_signed_up'],
      a.funnel.map((f) => [f.label, f.count, f.ofPrevious, f.ofSignedUp]),
    );
  if (kind === 'mix')
    return toCsv(
      ['dimension', 'value', 'members', 'percent'],
      [
        ...a.modeMix.map((m) => ['mode', m.key, m.count, m.percent]),
        ...a.tierMix.map((m) => ['tier', m.key, m.count, m.percent]),
      ],
    );
  return toCsv(
    ['cohort_week', 'members', 'week', 'active', 'percent_active'],
    a.cohorts.flatMap((c) => c.weeks.map((w) => [c.cohort, c.size, w.week, w.active, w.percent])),
  );
}
