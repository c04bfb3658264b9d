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
    const words = f.q;
    const like = `%${words.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
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

export function moderationItemsOf(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('moderation_items')
    .select(['id', 'status', 'content_type', 'flagged_reason', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * His latest reports, filed against him (`against`) or by him (`by`), each with the member on the
 * other side as staff see a member: a name and an anonymous id, never an email.
 */
export function reportsOf(db: Db, userId: string, side: 'against' | 'by', limit: number) {
  const [mine, theirs] =
    side === 'against' ? (['reported_id', 'reporter_id'] as const) : (['reporter_id', 'reported_id'] as const);
  return db
    .selectFrom('user_reports as r')
    .innerJoin('users as o', 'o.id', `r.${theirs}`)
    .select([
      'r.id',
      'r.category',
      'r.reason',
      'r.status',
      'r.created_at',
      'o.id as other_id',
      'o.display_name',
      'o.anonymous_id',
    ])
    .where(`r.${mine}`, '=', userId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id')
    .limit(limit)
    .execute();
}

export async function setActive(db: Db, id: string, active: boolean, now: Date): Promise<void> {
  await db.updateTable('users').set({ is_active: active, updated_at: now }).where('id', '=', id).execute();
}

/** Ends every live session of the user; returns their ids, so each open socket can be told. */
export async function revokeAllSessions(db: Db, userId: string, now: Date): Promise<string[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export const BANS_PAGE = 50;

/** Banned-email records, newest first, a page at a time; `q` matches the reason, an anonymous id, the hash's start or the banner's name. */
export async function listBans(db: Db, f: { q?: string | undefined; hash?: string | undefined }, page: number) {
  let q = db.selectFrom('banned_emails as b').leftJoin('users as s', 's.id', 'b.banned_by');
  if (f.hash) q = q.where('b.email_hash', '=', f.hash);
  else if (f.q) {
    const words = f.q;
    const like = `%${words.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('b.reason', 'ilike', like),
        eb(sql<string>`${sql.ref('b.associated_anonymous_ids')}::text`, 'ilike', like),
        eb('s.display_name', 'ilike', like),
        // The start of a hash, as the screen shows it (hex only, at least 4 characters).
        ...(/^[0-9a-f]{4,}$/i.test(words) ? [eb('b.email_hash', 'like', `${words.toLowerCase()}%`)] : []),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q
      .select([
        'b.email_hash',
        'b.reason',
        'b.banned_by',
        's.display_name as banned_by_name',
        'b.banned_at',
        'b.expires_at',
        'b.is_permanent',
        'b.associated_anonymous_ids',
      ])
      .orderBy('b.banned_at', 'desc')
      .orderBy('b.email_hash')
      .limit(BANS_PAGE)
      .offset((page - 1) * BANS_PAGE)
      .execute(),
    q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export function findBanByHash(db: Db, hash: string) {
  return db.selectFrom('banned_emails').select(['email', 'email_hash']).where('email_hash', '=', hash).executeTakeFirst();
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
