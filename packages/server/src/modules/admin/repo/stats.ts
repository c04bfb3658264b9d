import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

// The dashboard's and analytics' figures, read-only. Days are UTC days. A member is "active" on
// a day when he was seen that day (last_seen), chose someone in the game or sent a message:
// last_seen alone keeps only each member's latest day, the other two keep the history.

/** The currency revenue is summed in: every plan is priced in it. */
export const REVENUE_CURRENCY = 'USD';

/** (day, user) pairs of activity since `since`, as a SQL fragment. */
const activity = (since: Date) => sql`
  select distinct (x.t at time zone 'UTC')::date as day, x.uid from (
    select last_seen as t, id as uid from users where last_seen >= ${since}
    union all select created_at, chooser_id from selections where created_at >= ${since}
    union all select created_at, sender_id from messages where created_at >= ${since}
  ) x`;

const perDay = (table: string, col: string, since: Date, extra = sql``) => sql`
  select (${sql.ref(col)} at time zone 'UTC')::date as day, count(*) as n
  from ${sql.table(table)} where ${sql.ref(col)} >= ${since} ${extra} group by 1`;

export interface DayRow {
  day: string;
  signups: number;
  active: number;
  matches: number;
  messages: number;
  revenue: number;
  reports: number;
  moderation: number;
}

/**
 * Every UTC day from `from` to `to` (YYYY-MM-DD, both included) with its counts; the days come
 * from generate_series, so a day with nothing in it is a row of zeros. Revenue is completed
 * payments in minor units less the refunds staff made that day (payment_refunds that did not
 * fail), as on the financial screens; a negative payment amount subtracts too.
 */
export async function dailyFigures(db: Db, from: string, to: string): Promise<DayRow[]> {
  const since = new Date(`${from}T00:00:00Z`);
  const { rows } = await sql<Record<keyof DayRow, string | number>>`
    with d as (select g::date as day from generate_series(${from}::date, ${to}::date, interval '1 day') g),
      act as (${activity(since)})
    select to_char(d.day, 'YYYY-MM-DD') as day,
      coalesce(s.n, 0) as signups, coalesce(a.n, 0) as active, coalesce(m.n, 0) as matches,
      coalesce(msg.n, 0) as messages, coalesce(rev.n, 0) as revenue, coalesce(rep.n, 0) as reports,
      coalesce(mo.n, 0) as moderation
    from d
      left join (${perDay('users', 'created_at', since)}) s on s.day = d.day
      left join (select day, count(*) as n from act group by day) a on a.day = d.day
      left join (${perDay('matches', 'matched_at', since)}) m on m.day = d.day
      left join (${perDay('messages', 'created_at', since)}) msg on msg.day = d.day
      left join (
        select (r.at at time zone 'UTC')::date as day, sum(r.amount) as n from (
          select created_at as at, amount from payments
          where created_at >= ${since} and status = 'completed' and currency = ${REVENUE_CURRENCY}
          union all
          select created_at, -amount from payment_refunds
          where created_at >= ${since} and status <> 'failed' and currency = ${REVENUE_CURRENCY}
        ) r group by 1
      ) rev on rev.day = d.day
      left join (${perDay('user_reports', 'created_at', since)}) rep on rep.day = d.day
      left join (${perDay('moderation_items', 'created_at', since)}) mo on mo.day = d.day
    order by d.day`.execute(db);
  return rows.map((r) => ({
    day: String(r.day),
    signups: Number(r.signups),
    active: Number(r.active),
    matches: Number(r.matches),
    messages: Number(r.messages),
    revenue: Number(r.revenue),
    reports: Number(r.reports),
    moderation: Number(r.moderation),
  }));
}

/** Members in all, distinct active members since `since`, and what waits for staff now. */
export async function currentTotals(db: Db, since: Date) {
  const { rows } = await sql<Record<string, string | number>>`
    select
      (select count(*) from users) as users,
      (select count(distinct uid) from (${activity(since)}) act) as active,
      (select count(*) from user_reports where status = 'pending') as open_reports,
      (select count(*) from moderation_items where status = 'pending') as pending_moderation`.execute(db);
  const r = rows[0]!;
  return {
    users: Number(r.users),
    activeUsers: Number(r.active),
    openReports: Number(r.open_reports),
    pendingModeration: Number(r.pending_moderation),
  };
}

/** Members who signed up in each week (Monday, UTC) since `since`. */
export async function cohortSizes(db: Db, since: Date) {
  const { rows } = await sql<{ cohort: string; size: string | number }>`
    select to_char(date_trunc('week', created_at at time zone 'UTC'), 'YYYY-MM-DD') as cohort, count(*) as size
    from users where created_at >= ${since} group by 1`.execute(db);
  return rows.map((r) => ({ cohort: r.cohort, size: Number(r.size) }));
}

/** For each sign-up week since `since` and each week after it, how many of its members were active. */
export async function cohortActivity(db: Db, since: Date) {
  const { rows } = await sql<{ cohort: string; week: string | number; active: string | number }>`
    with c as (
      select id, date_trunc('week', created_at at time zone 'UTC')::date as cohort from users where created_at >= ${since}
    ), act as (${activity(since)})
    select to_char(c.cohort, 'YYYY-MM-DD') as cohort, (act.day - c.cohort) / 7 as week, count(distinct c.id) as active
    from c join act on act.uid = c.id and act.day >= c.cohort
    group by 1, 2`.execute(db);
  return rows.map((r) => ({ cohort: r.cohort, week: Number(r.week), active: Number(r.active) }));
}

/** Of the members who signed up since `since`: how many finished onboarding, then matched, then sent a message. */
export async function funnelCounts(db: Db, since: Date) {
  const { rows } = await sql<Record<'signed_up' | 'onboarded' | 'matched' | 'messaged', string | number>>`
    with u as (
      select u.id, u.onboarding_complete as onboarded,
        exists (select 1 from matches m where m.user_a = u.id or m.user_b = u.id) as matched,
        exists (select 1 from messages msg where msg.sender_id = u.id) as messaged
      from users u where u.created_at >= ${since}
    )
    select count(*) as signed_up,
      count(*) filter (where onboarded) as onboarded,
      count(*) filter (where onboarded and matched) as matched,
      count(*) filter (where onboarded and matched and messaged) as messaged
    from u`.execute(db);
  const r = rows[0]!;
  return {
    signedUp: Number(r.signed_up),
    onboarded: Number(r.onboarded),
    matched: Number(r.matched),
    messaged: Number(r.messaged),
  };
}

/** Active accounts by their current mode and by their tier. */
export async function mixCounts(db: Db) {
  const [modes, tiers] = await Promise.all([
    db
      .selectFrom('users')
      .select(['current_mode as key', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('is_active', '=', true)
      .groupBy('current_mode')
      .execute(),
    db
      .selectFrom('users')
      .select(['subscription_tier as key', (eb) => eb.fn.countAll<string | number>().as('count')])
      .where('is_active', '=', true)
      .groupBy('subscription_tier')
      .execute(),
  ]);
  const n = (rows: { key: string; count: string | number }[]) => rows.map((r) => ({ key: r.key, count: Number(r.count) }));
  return { modes: n(modes), tiers: n(tiers) };
}
