import { LOCATION_WARNINGS, OPEN_SETTINGS_ACTION, SAFETY_REMINDERS } from '@fmk/core';
import type { AlertsService } from './alerts.ts';

/** The UTC day of an instant: reminders that would nag are given once a day. */
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * What cruise and the grid tell safety: location_warning and safety_reminder
 * raised by real events. Each method never throws (the caller's request already succeeded):
 * `raise` failures are logged by the caller's logger.
 */
export class SafetySignals {
  constructor(
    private readonly alerts: Pick<AlertsService, 'raise' | 'wants'>,
    private readonly log?: { warn(obj: object, msg: string): void },
  ) {}

  /**
   * A cruise session started: the public-place advice (once a day, with publicPlaceReminders on),
   * and a location_warning (once a session, with locationReminders on) when he shares his exact
   * 500 m area with men nearby.
   */
  async cruiseStarted(userId: string, session: { id: string; startedAt: Date }, exact: boolean): Promise<void> {
    await this.safely(async () => {
      if (await this.alerts.wants(userId, 'publicPlaceReminders'))
        await this.alerts.raise(userId, {
          type: 'safety_reminder',
          severity: 'low',
          ...SAFETY_REMINDERS.cruise,
          contentId: session.id,
          dedupeKey: `cruise-reminder:${dayOf(session.startedAt)}`,
        });
      if (exact) await this.exactWhileCruising(userId, session.id);
    });
  }

  /** He chose exact precision during a running session (or started one with it); locationReminders on. */
  async exactWhileCruising(userId: string, sessionId: string): Promise<void> {
    await this.safely(async () => {
      if (!(await this.alerts.wants(userId, 'locationReminders'))) return;
      await this.alerts.raise(userId, {
        type: 'location_warning',
        severity: 'medium',
        ...LOCATION_WARNINGS.exactWhileCruising,
        contentId: sessionId,
        actions: [OPEN_SETTINGS_ACTION],
        dedupeKey: `exact-cruise:${sessionId}`,
      });
    });
  }

  /**
   * His location jumped faster than an airliner (the grid refused and flagged it): possibly his
   * account in someone else's hands, or a spoofed position. Once a day.
   */
  async impossibleJump(userId: string, at: Date): Promise<void> {
    await this.safely(() =>
      this.alerts.raise(userId, {
        type: 'location_warning',
        severity: 'high',
        ...LOCATION_WARNINGS.impossibleJump,
        actions: [OPEN_SETTINGS_ACTION],
        dedupeKey: `jump:${dayOf(at)}`,
      }),
    );
  }

  private async safely(fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.log?.warn({ err }, 'safety signal failed');
    }
  }
}
