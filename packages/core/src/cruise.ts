import { DAY, MINUTE } from './clock.ts';
import { type LatLng, snappedDistanceKm } from './geo.ts';
import type { AppPreferences } from './modes.ts';
import { type Tier, UNLIMITED } from './tiers.ts';

/**
 * Cruise: timed availability sessions, their quotas and the nearby-cruisers window.
 * Every rule takes `now` from the caller (an injected clock), so rollovers are tested without waiting.
 */

/** A session lasts 30 minutes in every tier (spec section 9) and ends by itself. */
export const CRUISE_SESSION_MINUTES = 30;
export const CRUISE_SESSION_MS = CRUISE_SESSION_MINUTES * MINUTE;
/** Nearby users: updated within the last 30 minutes, within 5 km by default (spec sections 7, 9). */
export const NEARBY_WINDOW_MS = 30 * MINUTE;
export const NEARBY_RADIUS_KM = 5;
/** The largest radius a client may ask for (a city, not a country). */
export const NEARBY_MAX_RADIUS_KM = 50;

export type CruisePeriod = 'day' | 'week';

/**
 * Sessions a tier may start per period (spec section 6): free one a week, premium one a day,
 * platinum unlimited (-1). Platinum counts by day only for its counters.
 */
export const CRUISE_QUOTA = {
  free: { period: 'week', sessions: 1 },
  premium: { period: 'day', sessions: 1 },
  platinum: { period: 'day', sessions: UNLIMITED },
} as const satisfies Record<Tier, { period: CruisePeriod; sessions: number }>;

/**
 * A user's cruise counters. `starts` is what the quota counts (a session started, however short);
 * `sessions` and `minutes` are what ending adds (spec section 4); all three reset at rollover,
 * the totals never do.
 */
export interface CruiseCounters {
  period: CruisePeriod;
  /** A day period starts at UTC midnight; a week starts with its first session (null: none yet). */
  periodStart: Date | null;
  starts: number;
  sessions: number;
  minutes: number;
  totalSessions: number;
  totalMinutes: number;
  lastStartAt: Date | null;
}

export function startOfUtcDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** When a period ends: the next UTC midnight (date change) for a day, 7 days on for a week. */
export function periodEnd(period: CruisePeriod, start: Date): Date {
  return period === 'day' ? new Date(startOfUtcDay(start).getTime() + DAY) : new Date(start.getTime() + 7 * DAY);
}

export function emptyCruiseCounters(tier: Tier, now: Date): CruiseCounters {
  const period = CRUISE_QUOTA[tier].period;
  return {
    period,
    periodStart: period === 'day' ? startOfUtcDay(now) : null,
    starts: 0,
    sessions: 0,
    minutes: 0,
    totalSessions: 0,
    totalMinutes: 0,
    lastStartAt: null,
  };
}

/**
 * The counters as they stand at `now` for the user's tier (spec section 4: "daily at date change,
 * weekly after 7 days"). A new period keeps the totals. When the tier changed period kind, the
 * last start still counts if it lies inside the new period, so changing plan never grants an
 * extra session the same day (upgrade) or the same week (downgrade).
 */
export function rollOver(c: CruiseCounters | null, tier: Tier, now: Date): CruiseCounters {
  if (!c) return emptyCruiseCounters(tier, now);
  const period = CRUISE_QUOTA[tier].period;
  const current = c.period === period && c.periodStart !== null && now < periodEnd(c.period, c.periodStart);
  if (current) return c;
  // A week without a start yet stays open until its first start.
  if (c.period === period && period === 'week' && c.periodStart === null) return c;
  const fresh: CruiseCounters = {
    ...emptyCruiseCounters(tier, now),
    totalSessions: c.totalSessions,
    totalMinutes: c.totalMinutes,
    lastStartAt: c.lastStartAt,
  };
  if (c.period !== period && c.lastStartAt) {
    const last = c.lastStartAt;
    if (period === 'day' && last >= startOfUtcDay(now)) fresh.starts = 1;
    if (period === 'week' && now < periodEnd('week', last)) {
      fresh.periodStart = last;
      fresh.starts = 1;
    }
  }
  return fresh;
}

export type StartDecision = { allowed: true } | { allowed: false; nextAt: Date };

/** Whether the tier's quota lets the user start a session now (counters already rolled over). */
export function canStartSession(c: CruiseCounters, tier: Tier, limit: number = CRUISE_QUOTA[tier].sessions): StartDecision {
  if (limit === UNLIMITED || c.starts < limit) return { allowed: true };
  // A full period always has a start, so periodStart is set.
  return { allowed: false, nextAt: periodEnd(c.period, c.periodStart ?? c.lastStartAt ?? new Date(0)) };
}

/** Sessions left in the current period; -1 unlimited. */
export function sessionsLeft(c: CruiseCounters, tier: Tier, limit: number = CRUISE_QUOTA[tier].sessions): number {
  return limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - c.starts);
}

/** The counters after a start at `now` (rolled over first). */
export function recordStart(c: CruiseCounters | null, tier: Tier, now: Date): CruiseCounters {
  const r = rollOver(c, tier, now);
  return { ...r, periodStart: r.periodStart ?? now, starts: r.starts + 1, lastStartAt: now };
}

/** When a session started at `startedAt` ends by itself. */
export function sessionEndsAt(startedAt: Date): Date {
  return new Date(startedAt.getTime() + CRUISE_SESSION_MS);
}

/** Whether a session is still running at `now`: over at ends_at whether or not anything ran. */
export function isSessionLive(s: { endsAt: Date; endedAt: Date | null }, now: Date): boolean {
  return s.endedAt === null && now < s.endsAt;
}

/** Whole minutes a session counted: elapsed, rounded, never below 0 nor above 30. */
export function sessionMinutes(startedAt: Date, endedAt: Date): number {
  const m = Math.round((endedAt.getTime() - startedAt.getTime()) / MINUTE);
  return Math.min(CRUISE_SESSION_MINUTES, Math.max(0, m));
}

/** The counters after a session ends (spec section 4): one more session, its minutes added. */
export function recordEnd(c: CruiseCounters | null, tier: Tier, minutes: number, now: Date): CruiseCounters {
  const r = rollOver(c, tier, now);
  return {
    ...r,
    sessions: r.sessions + 1,
    minutes: r.minutes + minutes,
    totalSessions: r.totalSessions + 1,
    totalMinutes: r.totalMinutes + minutes,
  };
}

/** The upgrade prompt of a refused start (shaped like the daily message limit's). */
export function cruiseLimitText(tier: Tier): string {
  return tier === 'free'
    ? "You've used this week's 30-minute cruise session. Cruise every day with Premium membership..."
    : "You've used today's 30-minute cruise session. Cruise without limits with Platinum membership...";
}

/** Cruise is off in marry-only mode or with cruising disabled (spec sections 1, 2): the tab hides, the server refuses. */
export function cruisingAvailable(prefs: Pick<AppPreferences, 'appMode' | 'cruisingEnabled'>): boolean {
  return prefs.appMode !== 'marry' && prefs.cruisingEnabled;
}

/** A location counts for "nearby now" when updated within the last 30 minutes. */
export function isFreshForNearby(lastUpdated: Date, now: Date): boolean {
  return now.getTime() - lastUpdated.getTime() <= NEARBY_WINDOW_MS;
}

/** Within the nearby radius, measured like the grid: great-circle distance between cell centres. */
export function isWithinNearby(viewer: LatLng, target: LatLng, radiusKm: number = NEARBY_RADIUS_KM): boolean {
  return snappedDistanceKm(viewer, target) <= radiusKm;
}

/** Spot check-ins: how long one lasts (minutes). */
export const CHECKIN_MINUTES = { min: 15, default: 60, max: 180 } as const;
/** Check-ins show only as a count, and only from 3 people: fewer could single someone out. */
export const CHECKIN_MIN_VISIBLE = 3;

export function visibleCheckinCount(n: number): number | null {
  return n >= CHECKIN_MIN_VISIBLE ? n : null;
}

export const SPOT_KINDS = ['park', 'beach', 'sauna', 'bar', 'club', 'gym', 'woods', 'other'] as const;
export type SpotKind = (typeof SPOT_KINDS)[number];
export const SPOT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type SpotStatus = (typeof SPOT_STATUSES)[number];
/** Spots and events are listed within this distance of the viewer. */
export const SPOTS_RADIUS_KM = 25;
export const EVENT_STATUSES = ['scheduled', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
/** An event lasts between 30 minutes and 12 hours and is created at most 90 days ahead. */
export const EVENT_DURATION_MINUTES = { min: 30, default: 120, max: 720 } as const;
export const EVENT_MAX_DAYS_AHEAD = 90;
