import type { ReportCategory, ReportStatus } from '@fmk/core';
import type { Selectable } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { ReportMessagesTable, ReportScreenshotsTable, UserReportsTable } from '../../../db/schema.ts';

export type ReportRow = Selectable<UserReportsTable>;
export type ReportScreenshotRow = Selectable<ReportScreenshotsTable>;
export type ReportMessageRow = Selectable<ReportMessagesTable>;

const count = async (q: Promise<{ n: number | string | bigint } | undefined>) => Number((await q)?.n ?? 0);

/** Serialises one member's counted writes (the day's limits are counted under it). */
export async function lockMember(trx: Db, userId: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

// --- screenshots

export function countScreenshotsSince(db: Db, userId: string, since: Date): Promise<number> {
  return count(
    db
      .selectFrom('report_screenshots')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .executeTakeFirst(),
  );
}

export async function insertScreenshot(db: Db, row: Omit<ReportScreenshotRow, 'report_id'>): Promise<void> {
  await db.insertInto('report_screenshots').values(row).execute();
}

export function findScreenshot(db: Db, id: string): Promise<ReportScreenshotRow | undefined> {
  return db.selectFrom('report_screenshots').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The member's own unattached screenshots among `ids`, locked for attaching. */
export function freeScreenshotsOf(trx: Db, userId: string, ids: readonly string[]): Promise<{ id: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('report_screenshots')
    .select('id')
    .where('id', 'in', ids)
    .where('user_id', '=', userId)
    .where('report_id', 'is', null)
    .forUpdate()
    .execute();
}

export async function attachScreenshots(trx: Db, ids: readonly string[], reportId: string): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('report_screenshots').set({ report_id: reportId }).where('id', 'in', ids).execute();
}

/** The storage keys of a member's report screenshots, for whoever erases his account to delete. */
export async function screenshotKeysOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('report_screenshots').select('storage_key').where('user_id', '=', userId).execute();
  return rows.map((r) => r.storage_key);
}

// --- reports

export function countReportsSince(db: Db, reporterId: string, since: Date): Promise<number> {
  return count(
    db
      .selectFrom('user_reports')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('reporter_id', '=', reporterId)
      .where('created_at', '>=', since)
      .executeTakeFirst(),
  );
}

/** Messages among `ids` sent between the two men, either way: the only ones he may report. */
export function messagesBetween(trx: Db, ids: readonly string[], me: string, other: string) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('messages')
    .select(['id', 'sender_id', 'type', 'content', 'photo_id', 'created_at'])
    .where('id', 'in', ids)
    .where((w) =>
      w.or([
        w.and([w('sender_id', '=', me), w('receiver_id', '=', other)]),
        w.and([w('sender_id', '=', other), w('receiver_id', '=', me)]),
      ]),
    )
    .orderBy('seq')
    .execute();
}

export async function insertReport(
  trx: Db,
  row: Omit<ReportRow, 'status' | 'reviewed_by'>,
  messages: readonly ReportMessageRow[],
): Promise<void> {
  await trx.insertInto('user_reports').values(row).execute();
  if (messages.length > 0)
    await trx
      .insertInto('report_messages')
      .values([...messages])
      .execute();
}

export function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  return db.selectFrom('user_reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listReportsOf(db: Db, reporterId: string, limit: number): Promise<ReportRow[]> {
  return db
    .selectFrom('user_reports')
    .selectAll()
    .where('reporter_id', '=', reporterId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Report triage's filters (core reportListQuery). */
export interface StaffReportFilter {
  status?: ReportStatus | undefined;
  category?: ReportCategory | undefined;
  q?: string | undefined;
}

function staffReports(db: Db, f: StaffReportFilter) {
  let q = db
    .selectFrom('user_reports as r')
    .innerJoin('users as d', 'd.id', 'r.reported_id')
    .innerJoin('users as p', 'p.id', 'r.reporter_id');
  if (f.status) q = q.where('r.status', '=', f.status);
  if (f.category) q = q.where('r.category', '=', f.category);
  if (f.q) {
    const words = f.q;
    const like = `%${words.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('r.reason', 'ilike', like),
        eb('r.description', 'ilike', like),
        eb('d.display_name', 'ilike', like),
        eb('p.display_name', 'ilike', like),
        eb('d.anonymous_id', 'ilike', like),
        eb('p.anonymous_id', 'ilike', like),
        eb('r.id', '=', words),
        eb('r.reported_id', '=', words),
        eb('r.reporter_id', '=', words),
      ]),
    );
  }
  return q;
}

/** A page of reports for staff, newest first, with both members' names and anonymous ids; and how many match. */
export async function staffReportsPage(db: Db, f: StaffReportFilter, limit: number, offset: number) {
  const q = staffReports(db, f);
  const [rows, total] = await Promise.all([
    q
      .selectAll('r')
      .select([
        'd.display_name as reported_name',
        'd.anonymous_id as reported_anonymous_id',
        'p.display_name as reporter_name',
        'p.anonymous_id as reporter_anonymous_id',
      ])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id')
      .limit(limit)
      .offset(offset)
      .execute(),
    count(q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst()),
  ]);
  return { rows, total };
}

/** Both members of reports by id (the report a staff member just moved). */
export function reportPeople(db: Db, id: string) {
  return staffReports(db, {})
    .select([
      'd.display_name as reported_name',
      'd.anonymous_id as reported_anonymous_id',
      'p.display_name as reporter_name',
      'p.anonymous_id as reporter_anonymous_id',
    ])
    .where('r.id', '=', id)
    .executeTakeFirst();
}

/** The messages kept as report evidence, with their report, newest first; nothing outside report_messages. */
export function listEvidence(db: Db, limit: number, offset: number) {
  return db
    .selectFrom('report_messages as m')
    .innerJoin('user_reports as r', 'r.id', 'm.report_id')
    .select([
      'm.report_id',
      'm.message_id',
      'm.from_reported',
      'm.type',
      'm.content',
      'm.photo_id',
      'm.sent_at',
      'r.status',
      'r.category',
      'r.reported_id',
      'r.reporter_id',
    ])
    .orderBy('m.sent_at', 'desc')
    .orderBy('m.report_id')
    .orderBy('m.message_id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export function countEvidence(db: Db): Promise<number> {
  return count(
    db
      .selectFrom('report_messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst(),
  );
}

export function screenshotsOf(db: Db, reportIds: readonly string[]): Promise<ReportScreenshotRow[]> {
  if (reportIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('report_screenshots').selectAll().where('report_id', 'in', reportIds).orderBy('created_at').execute();
}

export function messagesOf(db: Db, reportIds: readonly string[]): Promise<ReportMessageRow[]> {
  if (reportIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('report_messages').selectAll().where('report_id', 'in', reportIds).orderBy('sent_at').execute();
}

/** Moves a report on only from `from` (compare-and-set): two staff acting at once cannot both win. */
export async function setReportStatus(
  db: Db,
  id: string,
  from: ReportStatus,
  to: ReportStatus,
  staffId: string,
  at: Date,
): Promise<boolean> {
  const res = await db
    .updateTable('user_reports')
    .set({ status: to, reviewed_by: staffId, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Distinct members who reported him since `since`: one reporter counts once. */
export function distinctReportersSince(db: Db, reportedId: string, since: Date): Promise<number> {
  return count(
    db
      .selectFrom('user_reports')
      .select((eb) => eb.fn.count('reporter_id').distinct().as('n'))
      .where('reported_id', '=', reportedId)
      .where('created_at', '>=', since)
      .executeTakeFirst(),
  );
}

// --- staff's items

/** Opens a suspicious_behavior item for him unless one is already open. */
export async function openFlag(db: Db, row: { id: string; user_id: string; reporters: number; created_at: Date }): Promise<void> {
  await db
    .insertInto('safety_flags')
    .values({ ...row, kind: 'suspicious_behavior' })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).where('status', '=', 'open').doNothing())
    .execute();
}

export function listFlags(db: Db, limit: number) {
  return db.selectFrom('safety_flags').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

// --- reported chat photos

/** Which of these chat photos (message_photos ids) a report holds as evidence. */
export async function reportedPhotoIds(db: Db, photoIds: readonly string[]): Promise<string[]> {
  if (photoIds.length === 0) return [];
  const rows = await db.selectFrom('report_messages').select('photo_id').distinct().where('photo_id', 'in', photoIds).execute();
  return rows.map((r) => r.photo_id!);
}

/** The file of a chat photo when a report holds it as evidence; undefined for any other photo. */
export async function reportedPhotoKey(db: Db, photoId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('message_photos as p')
    .select('p.storage_key')
    .where('p.id', '=', photoId)
    .where((eb) => eb.exists(eb.selectFrom('report_messages as r').select('r.report_id').whereRef('r.photo_id', '=', 'p.id')))
    .executeTakeFirst();
  return row?.storage_key;
}
