import { type CruiseCounters, type CruisePeriod, type StaffRecord, sessionMinutes } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { saveSettings } from '../../platform/settings/repo.ts';

/**
 * SQL of the cruiser, his sessions and counters (nearby cruisers: repo/nearby.ts; spots, check-ins
 * and group events: repo/places.ts). A session is live while
 * `ended_at is null and ends_at > now`: every read says so, so a session is over at ends_at
 * whether or not the sweeper has run yet.
 */

/** The caller as every cruise rule needs him (access, tier, consent, location). */
export function findCruiser(db: Db, userId: string) {
  return cruiserQuery(db, userId).executeTakeFirst();
}

export function cruiserQuery(db: Db, userId: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_settings as s', 's.user_id', 'u.id')
    .leftJoin('user_locations as ul', 'ul.user_id', 'u.id')
    .select([
      'u.id',
      'u.is_active',
      'u.app_mode',
      'u.cruising_enabled',
      'u.current_mode',
      'u.subscription_tier',
      'u.has_lifetime_premium',
      'u.preferences',
      's.location_sharing_consent',
      's.location_precision',
      'ul.lat',
      'ul.lng',
      'ul.is_active as location_active',
      'ul.last_updated',
    ])
    .where('u.id', '=', userId);
}
export type Cruiser = NonNullable<Awaited<ReturnType<typeof findCruiser>>>;

export function findStaff(db: Db, userId: string): Promise<StaffRecord | null> {
  return db
    .selectFrom('admin_users')
    .select(['role', 'is_active'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
    .then((r) => (r ? { role: r.role, isActive: r.is_active } : null));
}

/** The user's location precision (user settings: exact / approximate). */
export function setLocationPrecision(db: Db, userId: string, precision: 'exact' | 'approximate', at: Date): Promise<void> {
  return saveSettings(db, userId, { location_precision: precision }, at);
}

// ---------------------------------------------------------------------------------------------
// Sessions and counters.

/**
 * The user's counters row, created if missing, locked for the transaction: every change to a
 * user's sessions or counters takes this lock first (start, end, sweeper), so two concurrent
 * starts cannot both pass the quota and the lock order is always counters → sessions.
 */
export async function lockCounters(trx: Db, userId: string, period: CruisePeriod): Promise<CruiseCounters> {
  await trx
    .insertInto('cruise_counters')
    .values({
      user_id: userId,
      period,
      period_start: null,
      starts: 0,
      sessions: 0,
      minutes: 0,
      total_sessions: 0,
      total_minutes: 0,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const r = await trx
    .selectFrom('cruise_counters')
    .selectAll()
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return toCounters(r);
}

export async function readCounters(db: Db, userId: string): Promise<CruiseCounters | null> {
  const r = await db.selectFrom('cruise_counters').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r ? toCounters(r) : null;
}

function toCounters(r: {
  period: CruisePeriod;
  period_start: Date | null;
  starts: number;
  sessions: number;
  minutes: number;
  total_sessions: number;
  total_minutes: number;
  last_start_at: Date | null;
}): CruiseCounters {
  return {
    period: r.period,
    periodStart: r.period_start,
    starts: r.starts,
    sessions: r.sessions,
    minutes: r.minutes,
    totalSessions: r.total_sessions,
    totalMinutes: r.total_minutes,
    lastStartAt: r.last_start_at,
  };
}

export async function saveCounters(trx: Db, userId: string, c: CruiseCounters): Promise<void> {
  await trx
    .updateTable('cruise_counters')
    .set({
      period: c.period,
      period_start: c.periodStart,
      starts: c.starts,
      sessions: c.sessions,
      minutes: c.minutes,
      total_sessions: c.totalSessions,
      total_minutes: c.totalMinutes,
      last_start_at: c.lastStartAt,
    })
    .where('user_id', '=', userId)
    .execute();
}

/** The user's open session (ended_at null), live or past its end but not finalized yet. */
export function findOpenSession(db: Db, userId: string) {
  return db
    .selectFrom('cruise_sessions')
    .select(['id', 'started_at', 'ends_at', 'right_now'])
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
}

export async function insertSession(
  trx: Db,
  s: { id: string; userId: string; startedAt: Date; endsAt: Date; rightNow: string | null },
): Promise<void> {
  await trx
    .insertInto('cruise_sessions')
    .values({ id: s.id, user_id: s.userId, started_at: s.startedAt, ends_at: s.endsAt, right_now: s.rightNow })
    .execute();
}

/**
 * Finalizes the user's open session: ended at `at`, or at its end if that came first, with
 * min(elapsed, 30) minutes (core sessionMinutes). The UPDATE keeps `ended_at is null`, so a
 * session is finalized once whoever gets there first (user, sweeper, another instance).
 * Returns the minutes, or null when there was nothing to finalize.
 */
export async function finalizeSession(trx: Db, userId: string, at: Date, opts: { onlyExpired: boolean }): Promise<number | null> {
  const open = await findOpenSession(trx, userId);
  if (!open || (opts.onlyExpired && open.ends_at > at)) return null;
  const expired = open.ends_at <= at;
  const endedAt = expired ? open.ends_at : at;
  const minutes = sessionMinutes(open.started_at, endedAt);
  const done = await trx
    .updateTable('cruise_sessions')
    .set({ ended_at: endedAt, minutes, end_reason: expired ? 'expired' : 'user' })
    .where('id', '=', open.id)
    .where('ended_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return done ? minutes : null;
}

/** Users with a session past its end and not finalized (the sweeper's work list). */
export async function dueSessionUsers(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('cruise_sessions')
    .select('user_id')
    .where('ended_at', 'is', null)
    .where('ends_at', '<=', now)
    .orderBy('ends_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * Cruising puts the user in now mode (his now profile is what the list shows): the profile mode,
 * and the mode of his location row, which the nearby index covers. Returns whether it changed.
 */
export async function switchToNowMode(trx: Db, userId: string, at: Date): Promise<boolean> {
  const changed = await trx
    .updateTable('users')
    .set({ current_mode: 'now', updated_at: at })
    .where('id', '=', userId)
    .where('current_mode', '<>', 'now')
    .executeTakeFirst();
  await trx.updateTable('user_locations').set({ mode: 'now' }).where('user_id', '=', userId).execute();
  if (Number(changed.numUpdatedRows) === 0) return false;
  await trx
    .insertInto('mode_events')
    .values({ user_id: userId, from_label: 'Dating', to_label: 'Hookup', trigger: 'manual', created_at: at })
    .execute();
  return true;
}
