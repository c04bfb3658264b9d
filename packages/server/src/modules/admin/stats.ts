import type { Dashboard } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { AppDeps } from '../../platform/module.ts';
import * as repo from './repo/stats.ts';

const DAY = 86_400_000;
export const ACTIVE_MEANS = 'seen in the app, chose someone in the game or sent a message that day (UTC)';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The dashboard (spec section 2): today and the last 30 UTC days, each day present. */
export class AdminStats {
  constructor(private readonly deps: Pick<AppDeps, 'clock'>) {}

  async dashboard(db: Db): Promise<Dashboard> {
    const now = this.deps.clock.now();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 29 * DAY);
    const [rows, totals] = await Promise.all([repo.dailyFigures(db, isoDay(from), isoDay(now)), repo.currentTotals(db, from)]);
    const pick = (k: keyof Omit<repo.DayRow, 'day'>) => rows.map((r) => ({ day: r.day, n: r[k] }));
    const today = rows[rows.length - 1];
    return {
      today: {
        signups: today?.signups ?? 0,
        activeUsers: today?.active ?? 0,
        matches: today?.matches ?? 0,
        messages: today?.messages ?? 0,
        revenue: today?.revenue ?? 0,
        openReports: totals.openReports,
        pendingModeration: totals.pendingModeration,
      },
      days: {
        signups: pick('signups'),
        activeUsers: pick('active'),
        matches: pick('matches'),
        messages: pick('messages'),
        revenue: pick('revenue'),
        reports: pick('reports'),
        moderation: pick('moderation'),
      },
      totals: {
        users: totals.users,
        activeUsers30d: totals.activeUsers,
        revenue30d: rows.reduce((a, r) => a + r.revenue, 0),
        openReports: totals.openReports,
        pendingModeration: totals.pendingModeration,
      },
      currency: repo.REVENUE_CURRENCY,
      activeMeans: ACTIVE_MEANS,
    };
  }
}
