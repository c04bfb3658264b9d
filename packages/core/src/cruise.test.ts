import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { staffCan } from './admin.ts';

import { eventBody, nearbyQuery, spotProposalBody } from './api-cruise.ts';
import { DAY, fixedClock, HOUR, MINUTE } from './clock.ts';
import {
  CRUISE_QUOTA,
  CRUISE_SESSION_MINUTES,
  type CruiseCounters,
  canStartSession,
  cruiseLimitText,
  cruisingAvailable,
  isFreshForNearby,
  isSessionLive,
  isWithinNearby,
  NEARBY_RADIUS_KM,
  periodEnd,
  recordEnd,
  recordStart,
  rollOver,
  sessionEndsAt,
  sessionMinutes,
  sessionsLeft,
  visibleCheckinCount,
} from './cruise.ts';
import { distanceKm, type LatLng } from './geo.ts';
import { STAFF_ROLES, TIERS, type Tier } from './tiers.ts';

const t0 = '2026-06-01T10:00:00Z';
/** Any instant in a few years around now. */
const instant = fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true });

/** Starts a session (if allowed) and ends it after `minutes`, on the clock. */
function cruise(c: CruiseCounters | null, tier: Tier, clock: ReturnType<typeof fixedClock>, minutes: number) {
  const rolled = rollOver(c, tier, clock.now());
  const decision = canStartSession(rolled, tier);
  if (!decision.allowed) return { counters: rolled, decision };
  const started = clock.now();
  const afterStart = recordStart(rolled, tier, started);
  clock.advance(minutes * MINUTE);
  return { counters: recordEnd(afterStart, tier, sessionMinutes(started, clock.now()), clock.now()), decision };
}

const canModerateLocations = (s: { role: (typeof STAFF_ROLES)[number]; isActive: boolean } | null) =>
  staffCan(s ? { ...s, permissions: null } : null, 'locations', 'approve');

describe('quotas (spec section 6)', () => {
  it('are one a week for free, one a day for premium, unlimited for platinum', () => {
    expect(CRUISE_QUOTA).toEqual({
      free: { period: 'week', sessions: 1 },
      premium: { period: 'day', sessions: 1 },
      platinum: { period: 'day', sessions: -1 },
    });
  });

  it('free: a second session in the same week is refused until 7 days after the first', () => {
    const clock = fixedClock(t0);
    const first = cruise(null, 'free', clock, 30);
    expect(first.decision.allowed).toBe(true);
    clock.set('2026-06-05T09:00:00Z'); // four days later, another calendar day
    const second = cruise(first.counters, 'free', clock, 30);
    expect(second.decision).toEqual({ allowed: false, nextAt: new Date('2026-06-08T10:00:00Z') });
    clock.set('2026-06-08T09:59:59Z');
    expect(canStartSession(rollOver(first.counters, 'free', clock.now()), 'free').allowed).toBe(false);
    clock.set('2026-06-08T10:00:00Z');
    const third = cruise(first.counters, 'free', clock, 10);
    expect(third.decision.allowed).toBe(true);
  });

  it('premium: one a day, rolling over at the (UTC) date change', () => {
    const clock = fixedClock('2026-06-01T23:00:00Z');
    const first = cruise(null, 'premium', clock, 30);
    expect(first.decision.allowed).toBe(true);
    clock.set('2026-06-01T23:59:00Z');
    expect(cruise(first.counters, 'premium', clock, 5).decision).toEqual({
      allowed: false,
      nextAt: new Date('2026-06-02T00:00:00Z'),
    });
    clock.set('2026-06-02T00:00:00Z');
    expect(cruise(first.counters, 'premium', clock, 5).decision.allowed).toBe(true);
  });

  it('platinum: never refused (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120 }), { maxLength: 30 }), (gaps) => {
        const clock = fixedClock(t0);
        let c: CruiseCounters | null = null;
        for (const gap of gaps) {
          const r = cruise(c, 'platinum', clock, Math.min(gap, 30));
          expect(r.decision.allowed).toBe(true);
          c = r.counters;
          clock.advance(gap * MINUTE);
        }
        expect(c === null ? 0 : sessionsLeft(c, 'platinum')).toBe(c === null ? 0 : -1);
      }),
    );
  });

  it('never lets a free user start more than one session in any 7 days, nor premium more than one per date (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Tier>('free', 'premium'),
        fc.array(fc.integer({ min: 1, max: 3 * 24 * 60 }), { minLength: 1, maxLength: 40 }),
        instant,
        (tier, gapsMin, start) => {
          const clock = fixedClock(start);
          let c: CruiseCounters | null = null;
          const starts: Date[] = [];
          for (const gap of gapsMin) {
            const before = clock.now();
            const r = cruise(c, tier, clock, 30);
            if (r.decision.allowed) starts.push(before);
            c = r.counters;
            clock.advance(gap * MINUTE);
          }
          for (let i = 1; i < starts.length; i++) {
            const a = starts[i - 1] as Date;
            const b = starts[i] as Date;
            if (tier === 'free') expect(b.getTime() - a.getTime()).toBeGreaterThanOrEqual(7 * DAY);
            else expect(b.toISOString().slice(0, 10)).not.toBe(a.toISOString().slice(0, 10));
          }
        },
      ),
    );
  });

  it('a refusal names when the next session is possible, always in the future (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Tier>('free', 'premium'),
        instant,
        fc.integer({ min: 0, max: 6 * 24 * 60 }),
        (tier, start, later) => {
          const c = recordStart(null, tier, start);
          const now = new Date(start.getTime() + later * MINUTE);
          const d = canStartSession(rollOver(c, tier, now), tier);
          if (!d.allowed) expect(d.nextAt.getTime()).toBeGreaterThan(now.getTime());
        },
      ),
    );
  });

  it('changing plan never grants a second session in the same day (upgrade) or week (downgrade)', () => {
    const start = new Date('2026-06-01T10:00:00Z');
    const free = recordStart(null, 'free', start);
    // Upgrade to premium the same day: today's session is already used.
    expect(canStartSession(rollOver(free, 'premium', new Date('2026-06-01T18:00:00Z')), 'premium').allowed).toBe(false);
    expect(canStartSession(rollOver(free, 'premium', new Date('2026-06-02T00:00:00Z')), 'premium').allowed).toBe(true);
    // Downgrade to free the next day: the week began with the premium session.
    const premium = recordStart(null, 'premium', start);
    const d = canStartSession(rollOver(premium, 'free', new Date('2026-06-02T10:00:00Z')), 'free');
    expect(d).toEqual({ allowed: false, nextAt: new Date('2026-06-08T10:00:00Z') });
  });

  it('the upgrade prompt names the plan that lifts the limit', () => {
    expect(cruiseLimitText('free')).toMatch(/Premium membership\.\.\.$/);
    expect(cruiseLimitText('premium')).toMatch(/Platinum membership\.\.\.$/);
  });
});

describe('counters (spec section 4)', () => {
  it('ending adds one session and its minutes; totals survive the rollover, period counters do not', () => {
    const clock = fixedClock('2026-06-01T08:00:00Z');
    const a = cruise(null, 'premium', clock, 12).counters;
    expect(a).toMatchObject({ sessions: 1, minutes: 12, totalSessions: 1, totalMinutes: 12, starts: 1 });
    clock.set('2026-06-02T08:00:00Z');
    const b = cruise(a, 'premium', clock, 30).counters;
    expect(b).toMatchObject({ sessions: 1, minutes: 30, totalSessions: 2, totalMinutes: 42, starts: 1 });
    expect(b.periodStart).toEqual(new Date('2026-06-02T00:00:00Z'));
  });

  it('a free week starts with its first session, not when the counters are looked at', () => {
    const looked = rollOver(null, 'free', new Date(t0));
    expect(looked.periodStart).toBeNull();
    expect(rollOver(looked, 'free', new Date('2026-07-01T00:00:00Z'))).toBe(looked);
    const started = recordStart(looked, 'free', new Date('2026-07-01T00:00:00Z'));
    expect(started.periodStart).toEqual(new Date('2026-07-01T00:00:00Z'));
    expect(periodEnd('week', started.periodStart as Date)).toEqual(new Date('2026-07-08T00:00:00Z'));
  });

  it('the totals never decrease and period counters never exceed the totals (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TIERS),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 45 }), fc.integer({ min: 0, max: 4 * 24 * 60 })), { maxLength: 30 }),
        (tier, steps) => {
          const clock = fixedClock(t0);
          let c: CruiseCounters | null = null;
          for (const [length, gap] of steps) {
            const prev: CruiseCounters | null = c;
            c = cruise(c, tier, clock, length).counters;
            if (prev) {
              expect(c.totalSessions).toBeGreaterThanOrEqual(prev.totalSessions);
              expect(c.totalMinutes).toBeGreaterThanOrEqual(prev.totalMinutes);
            }
            expect(c.sessions).toBeLessThanOrEqual(c.totalSessions);
            expect(c.minutes).toBeLessThanOrEqual(c.totalMinutes);
            expect(c.minutes).toBeLessThanOrEqual(c.sessions * CRUISE_SESSION_MINUTES);
            clock.advance(gap * MINUTE);
          }
        },
      ),
    );
  });
});

describe('the 30-minute window', () => {
  it('a session ends 30 minutes after it starts, in every tier', () => {
    const start = new Date(t0);
    expect(sessionEndsAt(start)).toEqual(new Date('2026-06-01T10:30:00Z'));
    expect(isSessionLive({ endsAt: sessionEndsAt(start), endedAt: null }, new Date('2026-06-01T10:29:59.999Z'))).toBe(true);
    expect(isSessionLive({ endsAt: sessionEndsAt(start), endedAt: null }, new Date('2026-06-01T10:30:00Z'))).toBe(false);
    expect(isSessionLive({ endsAt: sessionEndsAt(start), endedAt: start }, start)).toBe(false);
  });

  it('counts elapsed minutes, rounded, between 0 and 30 (property)', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -10 * MINUTE, max: 10 * HOUR }), (start, ms) => {
        const m = sessionMinutes(start, new Date(start.getTime() + ms));
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBeLessThanOrEqual(30);
        if (ms >= 0 && ms <= 29 * MINUTE) expect(m).toBe(Math.round(ms / MINUTE));
      }),
    );
    expect(sessionMinutes(new Date(t0), new Date('2026-06-01T11:45:00Z'))).toBe(30);
  });

  it('a location is fresh for nearby within 30 minutes of its update', () => {
    const at = new Date(t0);
    expect(isFreshForNearby(at, new Date('2026-06-01T10:30:00Z'))).toBe(true);
    expect(isFreshForNearby(at, new Date('2026-06-01T10:30:00.001Z'))).toBe(false);
  });
});

describe('distance (spec section 9: 5 km, earth radius 6371 km)', () => {
  const origin: LatLng = { lat: 52.52, lng: 13.405 };
  const east = (km: number): LatLng => ({
    lat: origin.lat,
    lng: origin.lng + km / (111.195 * Math.cos((origin.lat * Math.PI) / 180)),
  });

  it('uses the great-circle distance between cell centres', () => {
    expect(NEARBY_RADIUS_KM).toBe(5);
    expect(isWithinNearby(origin, east(3))).toBe(true);
    expect(isWithinNearby(origin, east(7))).toBe(false);
    // One degree of longitude at the equator is 2πR/360 on a 6371 km sphere.
    expect(distanceKm({ lat: 0, lng: 0 }, { lat: 0, lng: 1 })).toBeCloseTo((2 * Math.PI * 6371) / 360, 6);
  });

  it('never differs from the raw distance by more than the cell diagonal (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 20, noNaN: true }), (km) => {
        const p = east(km);
        const inside = isWithinNearby(origin, p);
        if (distanceKm(origin, p) <= NEARBY_RADIUS_KM - 0.8) expect(inside).toBe(true);
        if (distanceKm(origin, p) > NEARBY_RADIUS_KM + 0.8) expect(inside).toBe(false);
      }),
    );
  });
});

describe('availability, check-ins and permissions', () => {
  it('cruise is off in marry-only mode or with cruising disabled', () => {
    expect(cruisingAvailable({ appMode: 'both', cruisingEnabled: true })).toBe(true);
    expect(cruisingAvailable({ appMode: 'fuck', cruisingEnabled: true })).toBe(true);
    expect(cruisingAvailable({ appMode: 'marry', cruisingEnabled: true })).toBe(false);
    expect(cruisingAvailable({ appMode: 'both', cruisingEnabled: false })).toBe(false);
  });

  it('shows check-ins only as a count from 3', () => {
    expect([0, 1, 2, 3, 7].map(visibleCheckinCount)).toEqual([null, null, null, 3, 7]);
  });

  it('lets active owners, super admins and admins moderate spots, not moderators', () => {
    for (const role of ['owner', 'super_admin', 'admin'] as const)
      expect(canModerateLocations({ role, isActive: true })).toBe(true);
    expect(canModerateLocations({ role: 'moderator', isActive: true })).toBe(false);
    for (const role of STAFF_ROLES) expect(canModerateLocations({ role, isActive: false })).toBe(false);
    expect(canModerateLocations(null)).toBe(false);
  });
});

describe('cruise schemas', () => {
  it('reject bad coordinates with a clear message', () => {
    const r = spotProposalBody.safeParse({ name: 'Park', kind: 'park', lat: 123, lng: 13 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Latitude must be between -90 and 90.');
  });

  it('an event needs exactly one of a spot or a place', () => {
    const base = { title: 'Meet', startsAt: '2026-06-01T20:00:00Z' };
    expect(eventBody.safeParse(base).success).toBe(false);
    expect(eventBody.safeParse({ ...base, spotId: 's1' }).success).toBe(true);
    expect(eventBody.safeParse({ ...base, spotId: 's1', place: { name: 'x', lat: 1, lng: 1 } }).success).toBe(false);
  });

  it('nearby defaults to 5 km', () => {
    expect(nearbyQuery.parse({})).toEqual({ radiusKm: 5, limit: 50 });
  });
});
