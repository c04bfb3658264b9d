import { type ANALYTICS_EXPORTS, type Analytics, analyticsCsv, shapeCohorts, shapeFunnel, shapeMix, TIERS } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { writeAudit } from '../../platform/audit/repo.ts';
import type { AppDeps } from '../../platform/module.ts';
import * as repo from './repo/stats.ts';
import { ACTIVE_MEANS } from './stats.ts';
import type { StaffCtx } from './users.ts';

const DAY = 86_400_000;
/** Cohorts shown: this week and the 11 before it. */
export const COHORT_WEEKS = 12;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
/** The Monday (UTC) of the week holding `d`. */
const mondayOf = (d: Date) => {
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY);
};

/** Analytics (spec section 2): retention cohorts, the funnel, the mode and tier mix, and their CSV. */
export class AdminAnalytics {
  constructor(private readonly deps: Pick<AppDeps, 'clock'>) {}

  async read(db: Db): Promise<Analytics> {
    const week = mondayOf(this.deps.clock.now());
    const from = new Date(week.getTime() - (COHORT_WEEKS - 1) * 7 * DAY);
    const [sizes, active, funnel, mix] = await Promise.all([
      repo.cohortSizes(db, from),
      repo.cohortActivity(db, from),
      repo.funnelCounts(db, from),
      repo.mixCounts(db),
    ]);
    return {
      currentWeek: isoDay(week),
      from: isoDay(from),
      activeMeans: ACTIVE_MEANS,
      cohorts: shapeCohorts(sizes, active, isoDay(week)),
      funnel: shapeFunnel(funnel),
      modeMix: shapeMix(mix.modes, ['dating', 'now']),
      tierMix: shapeMix(mix.tiers, TIERS),
    };
  }

  /** The CSV of one part; the export itself is an audited staff action. */
  async export(db: Db, ctx: StaffCtx, kind: (typeof ANALYTICS_EXPORTS)[number]): Promise<string> {
    const csv = analyticsCsv(kind, await this.read(db));
    await writeAudit(db, {
      adminId: ctx.actor.id,
      action: `export_analytics:${kind}`,
      targetType: 'analytics',
      targetId: kind,
      reason: 'CSV export',
      ip: ctx.ip,
      now: this.deps.clock.now(),
    });
    return csv;
  }
}
