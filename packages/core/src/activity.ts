import { addDays, type LocalDate } from './health.ts';

/** Activity statistics (spec section 9) and the contact figures derived from the log. */

export const NONE_LABEL = 'None';
/** "This week" is the last 7 days, today included (spec section 9). */
export const WEEK_DAYS = 7;

export interface StatsActivity {
  date: LocalDate;
  partners: readonly string[];
  location: string | null;
  activities: readonly string[];
  rating: number | null;
}

export interface ActivityStats {
  totalActivities: number;
  uniquePartners: number;
  /** Mean of the rated entries, one decimal; 0 when none is rated. */
  averageRating: number;
  favoriteActivity: string;
  favoriteLocation: string;
  thisMonth: number;
  thisWeek: number;
}

/** The most frequent value (ties: alphabetical first), or 'None'. Case and spacing are ignored when counting. */
function favourite(values: Iterable<string>): string {
  const counts = new Map<string, { label: string; n: number }>();
  for (const raw of values) {
    const label = raw.trim();
    if (!label) continue;
    const key = label.toLowerCase();
    const c = counts.get(key);
    if (c) c.n += 1;
    else counts.set(key, { label, n: 1 });
  }
  let best: { label: string; n: number } | null = null;
  for (const c of counts.values()) {
    if (!best || c.n > best.n || (c.n === best.n && c.label.localeCompare(best.label) < 0)) best = c;
  }
  return best?.label ?? NONE_LABEL;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Spec section 9: totals, unique partners, average rating, favourites, this month, this week (last 7 days). */
export function activityStats(logs: readonly StatsActivity[], today: LocalDate): ActivityStats {
  const partners = new Set<string>();
  let ratingSum = 0;
  let rated = 0;
  let thisMonth = 0;
  let thisWeek = 0;
  const month = today.slice(0, 7);
  const weekStart = addDays(today, -(WEEK_DAYS - 1));
  for (const l of logs) {
    for (const p of l.partners) partners.add(p);
    if (l.rating !== null) {
      ratingSum += l.rating;
      rated += 1;
    }
    if (l.date.slice(0, 7) === month && l.date <= today) thisMonth += 1;
    if (l.date >= weekStart && l.date <= today) thisWeek += 1;
  }
  return {
    totalActivities: logs.length,
    uniquePartners: partners.size,
    averageRating: rated === 0 ? 0 : round1(ratingSum / rated),
    favoriteActivity: favourite(logs.flatMap((l) => l.activities)),
    favoriteLocation: favourite(logs.flatMap((l) => (l.location ? [l.location] : []))),
    thisMonth,
    thisWeek,
  };
}

export interface ContactFigures {
  lastActivity: LocalDate | null;
  totalActivities: number;
  /** Mean rating of the rated entries with this contact, one decimal; null when none. */
  avgRating: number | null;
}

/** A contact's lastActivity, totalActivities and avgRating, always computed from the log itself. */
export function contactFigures(contactId: string, logs: readonly StatsActivity[]): ContactFigures {
  let last: LocalDate | null = null;
  let total = 0;
  let sum = 0;
  let rated = 0;
  for (const l of logs) {
    if (!l.partners.includes(contactId)) continue;
    total += 1;
    if (last === null || l.date > last) last = l.date;
    if (l.rating !== null) {
      sum += l.rating;
      rated += 1;
    }
  }
  return { lastActivity: last, totalActivities: total, avgRating: rated === 0 ? null : round1(sum / rated) };
}

/** Suggestions offered when logging (free text is allowed too). */
export const ACTIVITY_SUGGESTIONS = [
  'Kissing',
  'Oral (giving)',
  'Oral (receiving)',
  'Anal (top)',
  'Anal (bottom)',
  'Mutual masturbation',
  'Rimming',
  'Massage',
] as const;
