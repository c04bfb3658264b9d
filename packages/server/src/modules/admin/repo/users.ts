import { sql } from 'kysely';
import type { Db } from '../../../db/index.ts';

// The users screens: lists and one user's record as staff see it. Never an email, a location,
// health, activity or contacts: the only way to an email is the audited identity lookup.

export const USERS_PAGE = 50;

/** What every users screen shows of a user (the list's row; one user's record adds to it). */
const USER_ROW = [
  'u.id',
  'u.anonymous_id',
  'u.display_name',
  'u.subscription_tier',
  'u.is_active',
  'a.role as staff_role',
  'u.created_at',
  'u.last_seen',
] as const;

export async function searchUsers(
  db: Db,
  f: { q?: string; emailMatch?: string; status: 'active' | 'inactive' | 'all'; tier?: 'free' | 'premium' | 'platinum' },
  page: number,
) {
  let q = db.selectFrom('users as u').leftJoin('admin_users as a', 'a.user_id', 'u.id');
  if (f.status !== 'all') q = q.where('u.is_active', '=', f.status === 'active');
  if (f.tier) q = q.where('u.subscription_tier', '=', f.tier);
  if (f.emailMatch) q = q.where('u.email', '=', f.emailMatch);
  else if (f.q) {
    const like = `%${f.q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('u.display_name', 'ilike', like), eb('u.anonymous_id', 'ilike', like), eb('u.id', '=', f.q!)]));
  }
  const [rows, total] = await Promise.all([
    q
      .select(USER_ROW)
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id')
      .limit(USERS_PAGE)
      .offset((page - 1) * USERS_PAGE)
      .execute(),
    q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export function findUser(db: Db, id: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('admin_users as a', 'a.user_id', 'u.id')
    .select([
      ...USER_ROW,
      'u.email',
      'u.age',
      'u.bio',
      'u.onboarding_complete',
      (eb) =>
        eb
          .selectFrom('photos')
          .select((e) => e.fn.countAll<string | number>().as('n'))
          .whereRef('photos.user_id', '=', 'u.id')
          .as('photos'),
      (eb) =>
        eb
          .selectFrom('user_reports')
          .select((e) => e.fn.countAll<string | number>().as('n'))
          .whereRef('user_reports.reported_id', '=', 'u.id')
          .as('reports_against'),
      (eb) =>
        eb
          .selectFrom('user_reports')
          .select((e) => e.fn.countAll<string | number>().as('n'))
          .whereRef('user_reports.reporter_id', '=', 'u.id')
          .as('reports_by'),
    ])
    .where('u.id', '=', id)
    .executeTakeFirst();
}

export function moderationItemsOf(db: Db, userId: string) {
  return db
    .selectFrom('moderation_items')
    .select(['id', 'status', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(20)
    .execute();
}

export async function setActive(db: Db, id: string, active: boolean, now: Date): Promise<void> {
  await db.updateTable('users').set({ is_active: active, updated_at: now }).where('id', '=', id).execute();
}

export async function revokeAllSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export function listBans(db: Db) {
  return db
    .selectFrom('banned_emails')
    .select(['email_hash', 'reason', 'banned_by', 'banned_at', 'expires_at', 'is_permanent', 'associated_anonymous_ids'])
    .orderBy('banned_at', 'desc')
    .limit(500)
    .execute();
}

export function findBanByHash(db: Db, hash: string) {
  return db.selectFrom('banned_emails').select(['email', 'email_hash']).where('email_hash', '=', hash).executeTakeFirst();
}

const day = (col: string) => sql<string>`to_char(date_trunc('day', ${sql.ref(col)} at time zone 'UTC'), 'YYYY-MM-DD')`;

/** Counts per UTC day since `since`, for the dashboard's charts. */
export async function dailyCounts(db: Db, since: Date) {
  const per = async (table: 'users' | 'matches' | 'messages', col: string) =>
    (
      await db
        .selectFrom(table)
        .select([day(col).as('day'), (eb) => eb.fn.countAll<string | number>().as('n')])
        .where(sql.ref(col), '>=', since)
        .groupBy(sql`1`)
        .orderBy(sql`1`)
        .execute()
    ).map((r) => ({ day: r.day, n: Number(r.n) }));
  const active = (
    await db
      .selectFrom('users')
      .select([day('last_seen').as('day'), (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('last_seen', '>=', since)
      .groupBy(sql`1`)
      .orderBy(sql`1`)
      .execute()
  ).map((r) => ({ day: r.day, n: Number(r.n) }));
  const [signups, matches, messages] = await Promise.all([
    per('users', 'created_at'),
    per('matches', 'matched_at'),
    per('messages', 'created_at'),
  ]);
  return { signups, matches, messages, activeUsers: active };
}

export async function queueCounts(db: Db, since30: Date) {
  const n = (r: { n: string | number }) => Number(r.n);
  const [users, active30, reports, moderation] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('last_seen', '>=', since30)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('user_reports')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('moderation_items')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
  ]);
  return { users: n(users), activeUsers30d: n(active30), openReports: n(reports), pendingModeration: n(moderation) };
}

export async function liveConnections(db: Db): Promise<number> {
  const r = await db
    .selectFrom('live_connections')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
