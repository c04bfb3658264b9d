import { minutesOfDay } from './modes.ts';

/**
 * Health rules (spec sections 3 "Health and activity", 4 "Medication reminders", 9): pure, with
 * the local time passed in, so the browser (its own zone) and the server's reminder scheduler
 * (the zone the browser told it) decide the same way.
 */

/** A daily reminder is due within this many minutes either side of its time (spec section 9). */
export const REMINDER_WINDOW_MINUTES = 60;
/** The app re-checks reminders this often (spec section 4). */
export const REMINDER_CHECK_INTERVAL_MS = 30 * 60_000;
/** A screening is overdue when the latest is this many months old or older (spec section 9). */
export const SCREENING_OVERDUE_MONTHS = 3;
/** Encounters since the last screening after which a screening is suggested (spec section 9). */
export const SCREENING_THRESHOLDS = { unprotected: 10, protected: 20 } as const;
export const MINUTES_PER_DAY = 1440;

export const REMINDER_TYPES = ['daily', 'on-demand'] as const;
export type ReminderType = (typeof REMINDER_TYPES)[number];

/** A calendar date, `YYYY-MM-DD`, in the user's own time zone. */
export type LocalDate = string;
/** A moment as the user's wall clock shows it. */
export interface LocalTime {
  date: LocalDate;
  /** Minutes since local midnight, 0–1439. */
  minute: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `s` is a real calendar date written `YYYY-MM-DD`. */
export function isLocalDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** `date` moved by whole days. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** `date` moved by whole months, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const [y, m, d] = date.split('-').map(Number);
  const first = new Date(Date.UTC(y!, m! - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d!, last));
  return first.toISOString().slice(0, 10);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `tz` is an IANA time zone this runtime knows (e.g. 'Europe/Berlin'). */
export function isValidTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

function wallClock(at: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const p: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(at))) p[part.type] = part.value;
  return {
    y: Number(p.year),
    mo: Number(p.month),
    d: Number(p.day),
    h: Number(p.hour) % 24,
    mi: Number(p.minute),
    s: Number(p.second),
  };
}

/** What the wall clock in `timeZone` shows at `at`. */
export function localTimeIn(at: Date, timeZone: string): LocalTime {
  const w = wallClock(at.getTime(), timeZone);
  const date = `${String(w.y).padStart(4, '0')}-${String(w.mo).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
  return { date, minute: w.h * 60 + w.mi };
}

function offsetMs(at: number, timeZone: string): number {
  const w = wallClock(at, timeZone);
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a local wall-clock time happens in `timeZone`. A time skipped by a daylight-saving
 * jump lands just after the jump; a repeated one takes its first occurrence.
 */
export function zonedInstant(date: LocalDate, minute: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wall = Date.UTC(y!, m! - 1, d!, Math.floor(minute / 60), minute % 60);
  const a = wall - offsetMs(wall, timeZone);
  const b = wall - offsetMs(a, timeZone);
  const c = wall - offsetMs(b, timeZone);
  const candidates = [...new Set([a, b, c])];
  const exact = candidates.filter((t) => offsetMs(t, timeZone) === wall - t);
  return new Date(exact.length > 0 ? Math.min(...exact) : Math.max(...candidates));
}

/**
 * The dose a daily reminder refers to at `now`: the local date of the reminder occurrence within
 * ±60 minutes of now, or null outside every window. Windows cross midnight: at 00:20 a 23:50
 * reminder is yesterday's dose, at 23:30 a 00:15 reminder is tomorrow's.
 */
export function reminderOccurrence(reminderTime: string, now: LocalTime): LocalDate | null {
  const diff = now.minute - minutesOfDay(reminderTime);
  if (Math.abs(diff) <= REMINDER_WINDOW_MINUTES) return now.date;
  if (diff > 0 && MINUTES_PER_DAY - diff <= REMINDER_WINDOW_MINUTES) return addDays(now.date, 1);
  if (diff < 0 && MINUTES_PER_DAY + diff <= REMINDER_WINDOW_MINUTES) return addDays(now.date, -1);
  return null;
}

/** The date a "taken" mark at `now` is logged under: the dose whose window is open, else today. */
export function doseDate(reminderTime: string, now: LocalTime): LocalDate {
  return reminderOccurrence(reminderTime, now) ?? now.date;
}

export interface ReminderMedication {
  id: string;
  reminderTime: string;
  reminderType: ReminderType;
  isActive: boolean;
}
export interface DoseLog {
  medicationId: string;
  date: LocalDate;
  taken: boolean;
}

/**
 * Spec section 4: a daily reminder is due when the medication is active, not yet logged taken
 * for the dose, and now is within 60 minutes of its reminder time (either side).
 */
export function isReminderDue(med: ReminderMedication, logs: readonly DoseLog[], now: LocalTime): boolean {
  if (!med.isActive || med.reminderType !== 'daily') return false;
  const dose = reminderOccurrence(med.reminderTime, now);
  if (!dose) return false;
  return !logs.some((l) => l.medicationId === med.id && l.date === dose && l.taken);
}

/** A medication's current dose as the screens show it: its date, its log if any, whether its reminder is due. */
export function doseStatus<L extends DoseLog>(
  med: ReminderMedication,
  logs: readonly L[],
  now: LocalTime,
): { date: LocalDate; log: L | undefined; due: boolean } {
  const date = doseDate(med.reminderTime, now);
  return { date, log: logs.find((l) => l.medicationId === med.id && l.date === date), due: isReminderDue(med, logs, now) };
}

/** The medications whose reminder is due now. */
export function dueMedications<M extends ReminderMedication>(meds: readonly M[], logs: readonly DoseLog[], now: LocalTime): M[] {
  return meds.filter((m) => isReminderDue(m, logs, now));
}

/**
 * The next moment, strictly after `after`, at which a daily reminder at `reminderTime` fires in
 * `timeZone` (the server's push scheduler).
 */
export function nextReminderAt(reminderTime: string, timeZone: string, after: Date): Date {
  const minute = minutesOfDay(reminderTime);
  const today = localTimeIn(after, timeZone).date;
  for (let i = -1; i <= 2; i += 1) {
    const at = zonedInstant(addDays(today, i), minute, timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  /* c8 ignore next */
  return zonedInstant(addDays(today, 3), minute, timeZone);
}

/**
 * Where screening stands (spec section 4): the latest one, the date the next is due by (3 months
 * on), and whether it is overdue (none yet, or that date reached).
 */
export function screeningStatus(
  screenings: readonly { date: LocalDate }[],
  today: LocalDate,
): { latest: LocalDate | null; nextBy: LocalDate | null; overdue: boolean } {
  const latest = latestDate(screenings);
  const nextBy = latest ? addMonths(latest, SCREENING_OVERDUE_MONTHS) : null;
  return { latest, nextBy, overdue: nextBy === null || nextBy <= today };
}

/** Spec section 4: a screening is overdue when none exists or the latest is 3 months or older. */
export function isScreeningOverdue(screenings: readonly { date: LocalDate }[], today: LocalDate): boolean {
  return screeningStatus(screenings, today).overdue;
}

export function latestDate(items: readonly { date: LocalDate }[]): LocalDate | null {
  let latest: LocalDate | null = null;
  for (const s of items) if (latest === null || s.date > latest) latest = s.date;
  return latest;
}

export const PROTECTION = ['protected', 'unprotected', 'not-applicable'] as const;
export type Protection = (typeof PROTECTION)[number];

export interface ScreeningSuggestion {
  unprotected: number;
  protected: number;
  /** True when either count reached its threshold (10 unprotected, 20 protected). */
  suggested: boolean;
}

/**
 * Encounters logged after the latest screening (all of them when there is none), counted by
 * protection; a screening is suggested at 10 unprotected or 20 protected (spec section 9).
 */
export function screeningSuggestion(
  activities: readonly { date: LocalDate; protection: Protection }[],
  lastScreening: LocalDate | null,
): ScreeningSuggestion {
  let unprotected = 0;
  let prot = 0;
  for (const a of activities) {
    if (lastScreening && a.date <= lastScreening) continue;
    if (a.protection === 'unprotected') unprotected += 1;
    else if (a.protection === 'protected') prot += 1;
  }
  return {
    unprotected,
    protected: prot,
    suggested: unprotected >= SCREENING_THRESHOLDS.unprotected || prot >= SCREENING_THRESHOLDS.protected,
  };
}

/** The Health tab's red dot (spec section 2): a medication due or a screening overdue. */
export function healthNeedsAttention(dueCount: number, screeningOverdue: boolean): boolean {
  return dueCount > 0 || screeningOverdue;
}
