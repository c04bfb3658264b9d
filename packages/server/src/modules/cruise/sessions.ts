import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type Clock,
  CRUISE_QUOTA,
  type CruiseCounters,
  type CruiseStatus,
  canStartSession,
  cruiseLimitText,
  periodEnd,
  recordEnd,
  recordStart,
  rollOver,
  rulesOf,
  type StartSessionBody,
  sessionEndsAt,
  sessionsLeft,
  type Tier,
} from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { loadTier, requireAccess } from '../../platform/access.ts';
import { forbidden, limitReached } from '../../platform/errors.ts';
import { IntervalJob } from '../../platform/jobs.ts';
import { CruiseMessages, readCruiser } from './access.ts';
import {
  dueSessionUsers,
  finalizeSession,
  findOpenSession,
  insertSession,
  lockCounters,
  readCounters,
  saveCounters,
  setLocationPrecision,
  switchToNowMode,
} from './repo.ts';

export interface CruiseDeps {
  db: Db;
  clock: Clock;
}

/** Safety's side of a session (location_warning, safety_reminder); never throws. */
export interface CruiseSafety {
  cruiseStarted(userId: string, session: { id: string; startedAt: Date }, exact: boolean): Promise<void>;
  exactWhileCruising(userId: string, sessionId: string): Promise<void>;
}

/**
 * Ends the user's session if it is past its end (or any open one when `onlyExpired` is false) and
 * adds it to his counters, in one transaction under the counters lock. Returns whether one ended.
 */
async function finalizeFor(trx: Db, userId: string, tier: Tier, now: Date, onlyExpired: boolean): Promise<boolean> {
  const counters = await lockCounters(trx, userId, CRUISE_QUOTA[tier].period);
  const minutes = await finalizeSession(trx, userId, now, { onlyExpired });
  if (minutes === null) return false;
  await saveCounters(trx, userId, recordEnd(counters, tier, minutes, now));
  return true;
}

/** Cruise sessions: start, end, status, quotas. */
export class CruiseSessionService {
  constructor(private readonly deps: CruiseDeps & { safety?: CruiseSafety }) {}

  async status(actor: Actor): Promise<CruiseStatus> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    const now = this.deps.clock.now();
    // A session past its end is over now, whether or not the sweeper has run: count it.
    await this.deps.db.transaction().execute((trx) => finalizeFor(trx, userId, me.tier, now, true));
    return this.read(userId, me.tier, now, me.location_precision);
  }

  /**
   * Starts a 30-minute session: needs location consent and a shared location, and the tier's
   * quota (403 with the upgrade prompt). A start while one runs returns it (a retried tap).
   * Under the counters row lock, so two concurrent starts cannot both pass the quota.
   */
  async start(actor: Actor, body: StartSessionBody): Promise<CruiseStatus> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    if (!me.location_sharing_consent) throw forbidden(CruiseMessages.consentRequired, 'consent_required');
    if (me.lat === null || !me.location_active) throw forbidden(CruiseMessages.locationRequired, 'location_required');
    const now = this.deps.clock.now();
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      await finalizeFor(trx, userId, me.tier, now, true);
      const counters = rollOver(await lockCounters(trx, userId, CRUISE_QUOTA[me.tier].period), me.tier, now);
      if (await findOpenSession(trx, userId)) return { refused: null, started: null };
      if (!canStartSession(counters, me.tier, rulesOf(actor).limits.cruiseSessions).allowed) {
        await saveCounters(trx, userId, counters);
        return { refused: cruiseLimitText(me.tier), started: null };
      }
      const rightNow = body.rightNow?.trim() || null;
      const id = randomUUID();
      await insertSession(trx, { id, userId, startedAt: now, endsAt: sessionEndsAt(now), rightNow });
      await saveCounters(trx, userId, recordStart(counters, me.tier, now));
      await switchToNowMode(trx, userId, now);
      return { refused: null, started: id };
    });
    // Thrown after the commit, so an expired session finalized on the way stays finalized.
    if (outcome.refused) throw limitReached(outcome.refused);
    // A new session (not a retried tap): the meetup reminder, and a warning when his area is pinned.
    if (outcome.started)
      await this.deps.safety?.cruiseStarted(
        userId,
        { id: outcome.started, startedAt: now },
        (me.location_precision ?? 'exact') === 'exact',
      );
    return this.read(userId, me.tier, now, me.location_precision);
  }

  /** Ends the running session now (idempotent: nothing running is not an error). */
  async end(actor: Actor): Promise<CruiseStatus> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute((trx) => finalizeFor(trx, userId, me.tier, now, false));
    return this.read(userId, me.tier, now, me.location_precision);
  }

  /** Exact: my 500 m area pinned on others' maps; approximate: listed with a distance only. */
  async setPrecision(actor: Actor, precision: 'exact' | 'approximate'): Promise<CruiseStatus> {
    requireAccess(actor, 'cruise.use');
    const userId = actor.id;
    const me = await readCruiser(this.deps.db, actor);
    const now = this.deps.clock.now();
    await setLocationPrecision(this.deps.db, userId, precision, now);
    const status = await this.read(userId, me.tier, now, precision);
    if (precision === 'exact' && status.session) await this.deps.safety?.exactWhileCruising(userId, status.session.id);
    return status;
  }

  private async read(userId: string, tier: Tier, now: Date, precision: 'exact' | 'approximate' | null): Promise<CruiseStatus> {
    const [stored, open] = await Promise.all([readCounters(this.deps.db, userId), findOpenSession(this.deps.db, userId)]);
    return {
      ...presentStatus(rollOver(stored, tier, now), tier, open && open.ends_at > now ? open : null, now),
      locationPrecision: precision ?? 'exact',
    };
  }
}

export function presentStatus(
  c: CruiseCounters,
  tier: Tier,
  session: { id: string; started_at: Date; ends_at: Date; right_now: string | null } | null,
  now: Date,
): Omit<CruiseStatus, 'locationPrecision'> {
  const decision = canStartSession(c, tier);
  return {
    session: session
      ? {
          id: session.id,
          startedAt: session.started_at.toISOString(),
          endsAt: session.ends_at.toISOString(),
          rightNow: session.right_now,
        }
      : null,
    period: c.period,
    periodEndsAt: c.periodStart ? periodEnd(c.period, c.periodStart).toISOString() : null,
    sessionsThisPeriod: c.sessions,
    minutesThisPeriod: c.minutes,
    totalSessions: c.totalSessions,
    totalMinutes: c.totalMinutes,
    sessionsLeft: sessionsLeft(c, tier),
    nextStartAt: decision.allowed ? null : decision.nextAt.toISOString(),
    upsell: decision.allowed ? null : cruiseLimitText(tier),
    serverTime: now.toISOString(),
  };
}

/** How often the sweeper looks for sessions past their end. */
export const SWEEP_INTERVAL_MS = 30_000;
const SWEEP_BATCH = 500;

/**
 * Finalizes sessions past their end, with no tab open. Idempotent and safe
 * across instances: each session is finalized by one conditional UPDATE under its user's
 * counters lock, so two sweepers (or a sweeper and the user) never count it twice.
 */
export class CruiseSweeper {
  private readonly job: IntervalJob;

  constructor(
    private readonly deps: CruiseDeps & { log?: FastifyBaseLogger },
    intervalMs = SWEEP_INTERVAL_MS,
  ) {
    this.job = new IntervalJob(() => this.sweep(), { name: 'cruise sweep', log: deps.log, everyMs: intervalMs });
  }

  /** One pass: finalizes every session due at the clock's now; returns how many it ended. */
  async sweep(): Promise<number> {
    const now = this.deps.clock.now();
    let ended = 0;
    for (;;) {
      const users = await dueSessionUsers(this.deps.db, now, SWEEP_BATCH);
      const before = ended;
      for (const userId of users) {
        const done = await this.deps.db.transaction().execute(async (trx) => {
          const tier = await loadTier(trx, userId);
          // Gone since the listing: his sessions went with his row.
          if (!tier) return false;
          return finalizeFor(trx, userId, tier, now, true);
        });
        if (done) ended += 1;
      }
      // A full batch of which none ended means others are on it: leave the rest to them.
      if (users.length < SWEEP_BATCH || ended === before) return ended;
    }
  }

  start(): void {
    this.job.start();
  }

  /** Stops the timer and waits for a pass in progress, so the database can close after. */
  stop(): Promise<void> {
    return this.job.stop();
  }
}
