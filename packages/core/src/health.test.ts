import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createScreeningBody, healthSettingsBody } from './api-health.ts';
import { fixedClock, HOUR, MINUTE } from './clock.ts';
import {
  addDays,
  addMonths,
  doseDate,
  doseStatus,
  dueMedications,
  isLocalDate,
  isReminderDue,
  isScreeningOverdue,
  localTimeIn,
  nextReminderAt,
  type ReminderMedication,
  reminderOccurrence,
  screeningStatus,
  screeningSuggestion,
  zonedInstant,
} from './health.ts';

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const circular = (a: number, b: number) => {
  const d = Math.abs(a - b) % 1440;
  return Math.min(d, 1440 - d);
};
const med = (over: Partial<ReminderMedication> = {}): ReminderMedication => ({
  id: 'm1',
  reminderTime: '09:00',
  reminderType: 'daily',
  isActive: true,
  ...over,
});
const minuteArb = fc.integer({ min: 0, max: 1439 });
const dateArb = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('the due-reminder rule (spec section 4)', () => {
  it('is due exactly when now is within 60 minutes of the reminder time, either side, across midnight', () => {
    fc.assert(
      fc.property(minuteArb, minuteArb, dateArb, (reminder, now, date) => {
        const due = isReminderDue(med({ reminderTime: hhmm(reminder) }), [], { date, minute: now });
        expect(due).toBe(circular(reminder, now) <= 60);
      }),
    );
  });

  it('is not due once the dose of that window is logged taken, and due again the next day', () => {
    fc.assert(
      fc.property(minuteArb, fc.integer({ min: -60, max: 60 }), dateArb, (reminder, offset, date) => {
        // A moment within the window, possibly on the other side of midnight.
        const at = new Date(Date.parse(`${date}T00:00:00Z`) + (reminder + offset) * MINUTE);
        const now = localTimeIn(at, 'UTC');
        const m = med({ reminderTime: hhmm(reminder) });
        const dose = doseDate(m.reminderTime, now);
        expect(dose).toBe(date);
        expect(isReminderDue(m, [{ medicationId: 'm1', date: dose, taken: true }], now)).toBe(false);
        expect(isReminderDue(m, [{ medicationId: 'm1', date: dose, taken: false }], now)).toBe(true);
        expect(isReminderDue(m, [{ medicationId: 'other', date: dose, taken: true }], now)).toBe(true);
        const tomorrow = localTimeIn(new Date(at.getTime() + 24 * HOUR), 'UTC');
        expect(isReminderDue(m, [{ medicationId: 'm1', date: dose, taken: true }], tomorrow)).toBe(true);
      }),
    );
  });

  it('never fires for paused or on-demand medications', () => {
    fc.assert(
      fc.property(minuteArb, dateArb, (minute, date) => {
        const now = { date, minute };
        const t = hhmm(minute);
        expect(isReminderDue(med({ reminderTime: t, isActive: false }), [], now)).toBe(false);
        expect(isReminderDue(med({ reminderTime: t, reminderType: 'on-demand' }), [], now)).toBe(false);
      }),
    );
  });

  it('names the dose across midnight: 00:20 is inside yesterday 23:50, 23:30 inside tomorrow 00:15', () => {
    expect(reminderOccurrence('23:50', { date: '2026-03-01', minute: 20 })).toBe('2026-02-28');
    expect(reminderOccurrence('00:15', { date: '2026-12-31', minute: 23 * 60 + 30 })).toBe('2027-01-01');
    expect(reminderOccurrence('09:00', { date: '2026-03-01', minute: 10 * 60 + 1 })).toBeNull();
    expect(reminderOccurrence('09:00', { date: '2026-03-01', minute: 10 * 60 })).toBe('2026-03-01');
  });

  it('reads the clock it is given: a medication due at 09:00 with an injected clock', () => {
    const clock = fixedClock('2026-06-01T08:10:00Z');
    const meds = [med(), med({ id: 'm2', reminderTime: '20:00' })];
    expect(dueMedications(meds, [], localTimeIn(clock.now(), 'UTC')).map((m) => m.id)).toEqual(['m1']);
    clock.advance(2 * HOUR);
    expect(dueMedications(meds, [], localTimeIn(clock.now(), 'UTC'))).toEqual([]);
    // 08:10 UTC is 10:10 in Berlin (summer time): outside the window there.
    clock.set('2026-06-01T08:10:00Z');
    expect(dueMedications(meds, [], localTimeIn(clock.now(), 'Europe/Berlin'))).toEqual([]);
  });
});

describe('time zones for the push scheduler', () => {
  it('the next reminder is the first later instant whose wall clock shows the reminder time', () => {
    const zones = ['UTC', 'Asia/Kolkata', 'America/Sao_Paulo', 'Asia/Tokyo'];
    fc.assert(
      fc.property(
        minuteArb,
        fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        (reminder, after, tz) => {
          const next = nextReminderAt(hhmm(reminder), tz, after);
          expect(next.getTime()).toBeGreaterThan(after.getTime());
          expect(next.getTime() - after.getTime()).toBeLessThanOrEqual(24 * HOUR);
          expect(localTimeIn(next, tz).minute).toBe(reminder);
        },
      ),
    );
  });

  it('handles daylight-saving days: the time lands once a day, 23 to 25 hours apart', () => {
    fc.assert(
      fc.property(
        minuteArb,
        fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom('America/New_York', 'Europe/Berlin', 'Australia/Sydney'),
        (reminder, after, tz) => {
          const a = nextReminderAt(hhmm(reminder), tz, after);
          const b = nextReminderAt(hhmm(reminder), tz, a);
          expect(a.getTime()).toBeGreaterThan(after.getTime());
          expect(b.getTime() - a.getTime()).toBeGreaterThanOrEqual(23 * HOUR);
          expect(b.getTime() - a.getTime()).toBeLessThanOrEqual(25 * HOUR);
          expect(localTimeIn(b, tz).date).toBe(addDays(localTimeIn(a, tz).date, 1));
        },
      ),
    );
    // 02:30 does not exist in New York on 8 March 2026: it fires just after the jump.
    expect(zonedInstant('2026-03-08', 150, 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(zonedInstant('2026-07-01', 9 * 60, 'America/New_York').toISOString()).toBe('2026-07-01T13:00:00.000Z');
  });
});

describe("a medication's current dose", () => {
  it("is the dose date's log and the reminder rule's answer", () => {
    const now = { date: '2026-05-10', minute: 9 * 60 + 20 };
    const logs = [
      { medicationId: 'm1', date: '2026-05-09', taken: true },
      { medicationId: 'm1', date: '2026-05-10', taken: true },
      { medicationId: 'm2', date: '2026-05-10', taken: false },
    ];
    expect(doseStatus(med(), logs, now)).toEqual({ date: '2026-05-10', log: logs[1], due: false });
    expect(doseStatus(med({ id: 'm2' }), logs, now)).toEqual({ date: '2026-05-10', log: logs[2], due: true });
    // Across midnight the open window's dose counts: at 00:20 a 23:50 reminder is yesterday's.
    expect(doseStatus(med({ reminderTime: '23:50' }), logs, { date: '2026-05-10', minute: 20 })).toEqual({
      date: '2026-05-09',
      log: logs[0],
      due: false,
    });
  });
});

describe('the overdue-screening rule (spec section 4)', () => {
  it('is overdue with no screening at all', () => {
    expect(isScreeningOverdue([], '2026-06-01')).toBe(true);
  });

  it('is overdue exactly when the latest screening is 3 months old or older', () => {
    fc.assert(
      fc.property(fc.array(dateArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 400 }), (dates, days) => {
        const latest = [...dates].sort().at(-1)!;
        const today = addDays(latest, days);
        expect(
          isScreeningOverdue(
            dates.map((date) => ({ date })),
            today,
          ),
        ).toBe(today >= addMonths(latest, 3));
      }),
    );
    expect(isScreeningOverdue([{ date: '2026-03-01' }], '2026-05-31')).toBe(false);
    expect(isScreeningOverdue([{ date: '2026-03-01' }], '2026-06-01')).toBe(true);
    expect(addMonths('2025-11-30', 3)).toBe('2026-02-28');
  });

  it('tells the screens the latest screening and the date the next is due by', () => {
    expect(screeningStatus([], '2026-06-01')).toEqual({ latest: null, nextBy: null, overdue: true });
    expect(screeningStatus([{ date: '2026-01-10' }, { date: '2026-03-01' }], '2026-05-31')).toEqual({
      latest: '2026-03-01',
      nextBy: '2026-06-01',
      overdue: false,
    });
    expect(screeningStatus([{ date: '2026-03-01' }], '2026-06-01').overdue).toBe(true);
  });

  it('suggests a screening at 10 unprotected or 20 protected encounters since the last one', () => {
    const logs = (n: number, protection: 'protected' | 'unprotected', date = '2026-05-10') =>
      Array.from({ length: n }, () => ({ date, protection }));
    expect(screeningSuggestion(logs(9, 'unprotected'), null).suggested).toBe(false);
    expect(screeningSuggestion(logs(10, 'unprotected'), null)).toEqual({ unprotected: 10, protected: 0, suggested: true });
    expect(screeningSuggestion(logs(19, 'protected'), null).suggested).toBe(false);
    expect(screeningSuggestion(logs(20, 'protected'), null).suggested).toBe(true);
    // Encounters on or before the last screening do not count.
    expect(screeningSuggestion(logs(30, 'unprotected', '2026-05-01'), '2026-05-01').suggested).toBe(false);
    expect(screeningSuggestion([{ date: '2026-05-02', protection: 'not-applicable' }], null).suggested).toBe(false);
  });
});

describe('validation', () => {
  it('accepts real dates and zones only', () => {
    expect(isLocalDate('2026-02-29')).toBe(false);
    expect(isLocalDate('2028-02-29')).toBe(true);
    expect(healthSettingsBody.safeParse({ timeZone: 'Europe/Berlin' }).success).toBe(true);
    expect(healthSettingsBody.safeParse({ timeZone: 'Mars/Olympus' }).success).toBe(false);
  });

  it('a screening gives results only for its tests', () => {
    expect(createScreeningBody.safeParse({ date: '2026-05-01', tests: ['HIV'], results: { HIV: 'negative' } }).success).toBe(
      true,
    );
    const bad = createScreeningBody.safeParse({ date: '2026-05-01', tests: ['HIV'], results: { Syphilis: 'negative' } });
    expect(bad.success).toBe(false);
  });
});
