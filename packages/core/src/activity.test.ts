import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activityStats, contactFigures, type StatsActivity } from './activity.ts';
import { DAY, fixedClock } from './clock.ts';
import { addDays, localTimeIn } from './health.ts';

const log = (over: Partial<StatsActivity> = {}): StatsActivity => ({
  date: '2026-06-01',
  partners: [],
  location: null,
  activities: [],
  rating: null,
  ...over,
});

describe('activity stats (spec section 9)', () => {
  it('is all zero and None for an empty log', () => {
    expect(activityStats([], '2026-06-01')).toEqual({
      totalActivities: 0,
      uniquePartners: 0,
      averageRating: 0,
      favoriteActivity: 'None',
      favoriteLocation: 'None',
      thisMonth: 0,
      thisWeek: 0,
    });
  });

  it('counts totals, unique partners, the average rating and favourites', () => {
    const logs = [
      log({ date: '2026-06-01', partners: ['a', 'b'], location: 'Home', activities: ['Kissing', 'Oral'], rating: 5 }),
      log({ date: '2026-05-30', partners: ['a'], location: 'home', activities: ['kissing'], rating: 4 }),
      log({ date: '2026-05-20', partners: ['c'], location: 'Sauna', activities: ['Massage'] }),
      log({ date: '2026-04-01', partners: [], location: null, activities: [], rating: 2 }),
    ];
    expect(activityStats(logs, '2026-06-01')).toEqual({
      totalActivities: 4,
      uniquePartners: 3,
      averageRating: 3.7,
      favoriteActivity: 'Kissing',
      favoriteLocation: 'Home',
      thisMonth: 1,
      thisWeek: 2,
    });
  });

  it('this week is the last 7 days and this month the calendar month, by the injected clock', () => {
    const clock = fixedClock('2026-06-03T12:00:00Z');
    const today = () => localTimeIn(clock.now(), 'UTC').date;
    const logs = [log({ date: '2026-05-28' }), log({ date: '2026-05-27' }), log({ date: '2026-06-02' })];
    expect(activityStats(logs, today())).toMatchObject({ thisWeek: 2, thisMonth: 1 });
    clock.advance(DAY);
    expect(activityStats(logs, today())).toMatchObject({ thisWeek: 1, thisMonth: 1 });
  });

  it('holds its invariants for any log', () => {
    const entry = fc.record({
      date: fc.integer({ min: -60, max: 5 }).map((d) => addDays('2026-06-15', d)),
      partners: fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 3 }),
      location: fc.option(fc.constantFrom('Home', 'Hotel', 'Park')),
      activities: fc.array(fc.constantFrom('Kissing', 'Oral', 'Massage'), { maxLength: 3 }),
      rating: fc.option(fc.integer({ min: 1, max: 5 })),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (logs) => {
        const s = activityStats(logs, '2026-06-15');
        expect(s.totalActivities).toBe(logs.length);
        expect(s.thisWeek).toBe(logs.filter((l) => l.date >= '2026-06-09' && l.date <= '2026-06-15').length);
        expect(s.thisMonth).toBe(logs.filter((l) => l.date >= '2026-06-01' && l.date <= '2026-06-15').length);
        expect(s.uniquePartners).toBe(new Set(logs.flatMap((l) => l.partners)).size);
        const rated = logs.flatMap((l) => (l.rating === null ? [] : [l.rating]));
        if (rated.length === 0) expect(s.averageRating).toBe(0);
        else {
          expect(s.averageRating).toBeGreaterThanOrEqual(1);
          expect(s.averageRating).toBeLessThanOrEqual(5);
        }
        if (logs.every((l) => l.activities.length === 0)) expect(s.favoriteActivity).toBe('None');
        else expect(logs.some((l) => (l.activities as string[]).includes(s.favoriteActivity))).toBe(true);
      }),
    );
  });
});

describe('contact figures, derived from the log', () => {
  it('counts only the entries with that contact', () => {
    const logs = [
      log({ date: '2026-05-01', partners: ['a'], rating: 3 }),
      log({ date: '2026-05-09', partners: ['a', 'b'], rating: 4 }),
      log({ date: '2026-05-05', partners: ['b'] }),
    ];
    expect(contactFigures('a', logs)).toEqual({ lastActivity: '2026-05-09', totalActivities: 2, avgRating: 3.5 });
    expect(contactFigures('b', logs)).toEqual({ lastActivity: '2026-05-09', totalActivities: 2, avgRating: 4 });
    expect(contactFigures('z', logs)).toEqual({ lastActivity: null, totalActivities: 0, avgRating: null });
  });
});
