import { type AlertType, OPEN_SETTINGS_ACTION, PUBLIC_PLACE_ADVICE } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { IntervalJob, type JobLog } from '../../platform/jobs.ts';
import type { RaiseAlert } from './alerts.ts';
import { onlineUserIds } from './repo/alerts.ts';

/** The spec's generator (section 9): a tick every 30 s, each with a 10 % chance. */
export const DEMO_TICK_MS = 30_000;
export const DEMO_CHANCE = 0.1;
const DEMO_BATCH = 1000;

/** One made-up alert of each type, titled as a demo so nobody takes it for a real event. */
const DEMO_ALERTS: Record<AlertType, Omit<RaiseAlert, 'type'>> = {
  safety_reminder: { severity: 'low', title: 'Demo: meeting someone?', message: PUBLIC_PLACE_ADVICE },
  suspicious_behavior: {
    severity: 'medium',
    title: 'Demo: a suspicious message',
    message: 'This is a simulated alert: in real use it warns you about a message that looks like spam or a scam.',
  },
  location_warning: {
    severity: 'medium',
    title: 'Demo: your location',
    message: 'This is a simulated alert: in real use it warns you when your exact area is visible while you cruise.',
    actions: [OPEN_SETTINGS_ACTION],
  },
  content_flagged: {
    severity: 'low',
    title: 'Demo: a photo in review',
    message: 'This is a simulated alert: in real use it tells you when one of your photos is held for review.',
  },
  user_reported: {
    severity: 'low',
    title: 'Demo: report received',
    message: 'This is a simulated alert: in real use it confirms a report you made and later its outcome.',
  },
};

/**
 * DEMO_SAFETY_ALERTS only (never in production: the configuration refuses it): every 30 s, each
 * member online gets a random demo alert with a 10 % chance. Real alerts come from events only.
 */
export class DemoAlertGenerator {
  private readonly job: IntervalJob;

  constructor(
    private readonly deps: {
      db: Db;
      raise: (userId: string, alert: RaiseAlert) => Promise<unknown>;
      random?: () => number;
      log?: JobLog;
    },
  ) {
    // Demo alerts are best effort: a failed tick only warns.
    this.job = new IntervalJob(() => this.tick(), { name: 'demo alerts', log: deps.log, level: 'warn', everyMs: DEMO_TICK_MS });
  }

  /** One tick: returns how many demo alerts it raised. */
  async tick(): Promise<number> {
    const random = this.deps.random ?? Math.random;
    const types = Object.keys(DEMO_ALERTS) as AlertType[];
    let raised = 0;
    for (const userId of await onlineUserIds(this.deps.db, DEMO_BATCH)) {
      if (random() >= DEMO_CHANCE) continue;
      const type = types[Math.floor(random() * types.length) % types.length]!;
      await this.deps.raise(userId, { type, ...DEMO_ALERTS[type] });
      raised += 1;
    }
    return raised;
  }

  start(intervalMs?: number): void {
    this.job.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }
}
