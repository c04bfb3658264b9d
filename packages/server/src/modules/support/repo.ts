import type { FeedbackCategory, FeedbackKind, FeedbackStatus, ThreadStatus, Tier } from '@fmk/core';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DB } from '../../db/schema.ts';

/** SQL of support: screenshots, bug reports and feedback, support threads and their messages. */

/**
 * Takes the member's row lock for the rest of the transaction: his counted writes (reports,
 * threads, messages) are counted and inserted one at a time, so two at once cannot both pass
 * the day's limit.
 */
export async function lockMember(trx: Db, userId: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

// --- screenshots

export async function insertScreenshot(
  db: Db,
  s: { id: string; userId: string; storageKey: string; width: number; height: number; bytes: number; at: Date },
): Promise<void> {
  await db
    .insertInto('support_screenshots')
    .values({
      id: s.id,
      user_id: s.userId,
      storage_key: s.storageKey,
      width: s.width,
      height: s.height,
      bytes: s.bytes,
      created_at: s.at,
    })
    .execute();
}

export async function countScreenshotsSince(db: Db, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('support_screenshots')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Storage keys of every screenshot the member uploaded: his files, for whatever removes his data. */
export async function screenshotKeysOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('support_screenshots').select('storage_key').where('user_id', '=', userId).execute();
  return rows.map((r) => r.storage_key);
}

/** A screenshot with the report it is attached to, if any. */
export function findScreenshot(db: Db, id: string) {
  return db
    .selectFrom('support_screenshots as s')
    .leftJoin('feedback_reports as f', 'f.screenshot_id', 's.id')
    .select(['s.id', 's.user_id', 's.storage_key', 's.width', 's.height', 'f.id as report_id'])
    .where('s.id', '=', id)
    .executeTakeFirst();
}

// --- reports

export async function countReportsSince(db: Db, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('feedback_reports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertReport(
  db: Db,
  r: {
    id: string;
    userId: string;
    kind: 'bug' | 'feedback';
    category: string;
    text: string;
    screenshotId: string | null;
    appVersion: string;
    browser: string;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('feedback_reports')
    .values({
      id: r.id,
      user_id: r.userId,
      kind: r.kind,
      category: r.category,
      text: r.text,
      screenshot_id: r.screenshotId,
      app_version: r.appVersion,
      browser: r.browser,
      created_at: r.at,
      updated_at: r.at,
    })
    .execute();
}

const member = (eb: ExpressionBuilder<DB & { u: DB['users'] }, 'u'>) => [
  eb.ref('u.id').as('member_id'),
  eb.ref('u.anonymous_id').as('member_anonymous_id'),
  eb.ref('u.display_name').as('member_display_name'),
  eb.ref('u.subscription_tier').as('member_tier'),
  eb.ref('u.has_lifetime_premium').as('member_lifetime_premium'),
];

function reportQuery(db: Db) {
  return db
    .selectFrom('feedback_reports as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .leftJoin('support_screenshots as s', 's.id', 'f.screenshot_id')
    .select([
      'f.id',
      'f.kind',
      'f.category',
      'f.text',
      'f.status',
      'f.app_version',
      'f.browser',
      'f.created_at',
      'f.updated_at',
      's.id as screenshot_id',
      's.width as screenshot_width',
      's.height as screenshot_height',
    ])
    .select(member);
}
export type ReportRow = NonNullable<Awaited<ReturnType<ReturnType<typeof reportQuery>['executeTakeFirst']>>>;

/** The member's own reports, newest first. */
export function listReportsOf(db: Db, userId: string, limit: number): Promise<ReportRow[]> {
  return reportQuery(db).where('f.user_id', '=', userId).orderBy('f.created_at', 'desc').orderBy('f.id').limit(limit).execute();
}

export function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  return reportQuery(db).where('f.id', '=', id).executeTakeFirst();
}

/** `%words%` for ilike, with the pattern characters of `words` taken literally. */
const contains = (words: string) => `%${words.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

/** The member's effective tier is `tier` (lifetime premium counts as premium, as effectiveTier says). */
const memberTier = (eb: ExpressionBuilder<DB & { u: DB['users'] }, 'u'>, tier: Tier) =>
  tier === 'platinum'
    ? eb('u.subscription_tier', '=', 'platinum')
    : tier === 'premium'
      ? eb.or([
          eb('u.subscription_tier', '=', 'premium'),
          eb.and([eb('u.subscription_tier', '=', 'free'), eb('u.has_lifetime_premium', '=', true)]),
        ])
      : eb.and([eb('u.subscription_tier', '=', 'free'), eb('u.has_lifetime_premium', '=', false)]);

/** Staff's filters of the bug reports and feedback (core feedbackListQuery). */
export interface StaffFeedbackFilter {
  status?: FeedbackStatus | undefined;
  kind?: FeedbackKind | undefined;
  category?: FeedbackCategory | undefined;
  q?: string | undefined;
}

/** A page of every member's reports for staff, newest first; and how many match. */
export async function staffReportsPage(db: Db, f: StaffFeedbackFilter, limit: number, offset: number) {
  let q = reportQuery(db);
  if (f.status) q = q.where('f.status', '=', f.status);
  if (f.kind) q = q.where('f.kind', '=', f.kind);
  if (f.category) q = q.where('f.category', '=', f.category);
  if (f.q) {
    const like = contains(f.q);
    q = q.where((eb) =>
      eb.or([eb('f.text', 'ilike', like), eb('u.display_name', 'ilike', like), eb('u.anonymous_id', 'ilike', like)]),
    );
  }
  const [rows, total] = await Promise.all([
    q.orderBy('f.created_at', 'desc').orderBy('f.id').limit(limit).offset(offset).execute(),
    db
      .selectFrom(q.as('x'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function setReportStatus(db: Db, id: string, status: FeedbackStatus, now: Date): Promise<boolean> {
  const r = await db.updateTable('feedback_reports').set({ status, updated_at: now }).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// --- threads

export async function countThreadsSince(db: Db, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('support_threads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The member's own messages in all his threads since `since`. */
export async function countMemberMessagesSince(db: Db, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('support_messages as m')
    .innerJoin('support_threads as t', 't.id', 'm.thread_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('t.user_id', '=', userId)
    .where('m.from_staff', '=', false)
    .where('m.created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertThread(db: Db, t: { id: string; userId: string; subject: string; at: Date }): Promise<void> {
  await db
    .insertInto('support_threads')
    .values({
      id: t.id,
      user_id: t.userId,
      subject: t.subject,
      status: 'open',
      created_at: t.at,
      last_message_at: t.at,
      member_read_at: t.at,
    })
    .execute();
}

export async function insertMessage(
  db: Db,
  m: { id: string; threadId: string; staffId: string | null; text: string; at: Date },
): Promise<void> {
  await db
    .insertInto('support_messages')
    .values({
      id: m.id,
      thread_id: m.threadId,
      from_staff: m.staffId !== null,
      staff_id: m.staffId,
      text: m.text,
      created_at: m.at,
    })
    .execute();
}

/** After a message: the thread's status and time, and the writer's side has read up to it. */
export async function touchThread(
  db: Db,
  id: string,
  change: { status: ThreadStatus; at: Date; side: 'member' | 'staff' },
): Promise<void> {
  await db
    .updateTable('support_threads')
    .set({
      status: change.status,
      last_message_at: change.at,
      ...(change.side === 'member' ? { member_read_at: change.at } : { staff_read_at: change.at }),
    })
    .where('id', '=', id)
    .execute();
}

export async function markRead(db: Db, id: string, side: 'member' | 'staff', at: Date): Promise<void> {
  await db
    .updateTable('support_threads')
    .set(side === 'member' ? { member_read_at: at } : { staff_read_at: at })
    .where('id', '=', id)
    .execute();
}

export async function setThreadStatus(db: Db, id: string, status: ThreadStatus): Promise<boolean> {
  const r = await db.updateTable('support_threads').set({ status }).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Threads with the unread count of one side: the member's unread are staff messages after his
 * member_read_at, staff's are the member's messages after staff_read_at (never read: all of them).
 */
function threadQuery(db: Db, side: 'member' | 'staff') {
  return db
    .selectFrom('support_threads as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 't.user_id', 't.subject', 't.status', 't.created_at', 't.last_message_at'])
    .select(member)
    .select((eb) =>
      eb
        .selectFrom('support_messages as m')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('m.thread_id', '=', 't.id')
        .where('m.from_staff', '=', side === 'member')
        .where(
          'm.created_at',
          '>',
          side === 'member' ? eb.ref('t.member_read_at') : sql<Date>`coalesce(t.staff_read_at, '-infinity'::timestamptz)`,
        )
        .as('unread'),
    );
}
export type ThreadRow = NonNullable<Awaited<ReturnType<ReturnType<typeof threadQuery>['executeTakeFirst']>>>;

export function listThreadsOf(db: Db, userId: string, limit: number): Promise<ThreadRow[]> {
  return threadQuery(db, 'member')
    .where('t.user_id', '=', userId)
    .orderBy('t.last_message_at', 'desc')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

export function findThread(db: Db, id: string, side: 'member' | 'staff'): Promise<ThreadRow | undefined> {
  return threadQuery(db, side).where('t.id', '=', id).executeTakeFirst();
}

/**
 * Staff's queue: members of the tiers with priority support first (the flag store's
 * `prioritySupport`, Platinum as seeded; lifetime premium never lifts a member above Premium, so
 * the stored tier decides), then the latest activity, optionally of one status.
 */
export async function staffThreadsPage(
  db: Db,
  f: { status?: ThreadStatus | undefined; tier?: Tier | undefined; q?: string | undefined },
  page: { limit: number; offset: number },
  priorityTiers: readonly string[],
) {
  let q = threadQuery(db, 'staff');
  if (f.status) q = q.where('t.status', '=', f.status);
  if (f.tier) {
    const tier = f.tier;
    q = q.where((eb) => memberTier(eb, tier));
  }
  if (f.q) {
    const like = contains(f.q);
    q = q.where((eb) =>
      eb.or([eb('t.subject', 'ilike', like), eb('u.display_name', 'ilike', like), eb('u.anonymous_id', 'ilike', like)]),
    );
  }
  const priority = priorityTiers.length ? sql`(u.subscription_tier in (${sql.join(priorityTiers)}))` : sql`false`;
  const [rows, total] = await Promise.all([
    q
      .orderBy(priority, 'desc')
      .orderBy('t.last_message_at', 'desc')
      .orderBy('t.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom(q.as('x'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export function threadMessages(db: Db, threadId: string) {
  return db
    .selectFrom('support_messages')
    .select(['id', 'from_staff', 'text', 'created_at'])
    .where('thread_id', '=', threadId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
