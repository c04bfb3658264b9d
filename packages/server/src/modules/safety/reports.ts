import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type Clock,
  type CreateUserReport,
  canMoveReport,
  EVIDENCE_PAGE,
  type EvidencePage,
  Messages,
  REPORT_SCREENSHOT_LIMIT,
  ReportMessages,
  type ReportScreenshot,
  type ReportStatus,
  type SafetyFlag,
  STAFF_REPORTS_PAGE,
  type StaffReportsPage,
  type StaffUserReport,
  SUSPICIOUS_REPORT_WINDOW_MS,
  SUSPICIOUS_REPORTERS,
  USER_REPORT_LIMIT,
  type UserReport,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { auditStaff, type StaffBy } from '../../platform/audit/repo.ts';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../platform/errors.ts';
import { readScreenshot, storeScreenshot } from '../../platform/media/screenshots.ts';
import { readObject, type Storage } from '../../platform/storage.ts';
import type { RaiseAlert } from './alerts.ts';
import { aboutHim } from './alerts.ts';
import * as repo from './repo/reports.ts';
import { chatPhotoExists, userExists } from './repo.ts';

export interface ReportsServiceDeps {
  db: Db;
  clock: Clock;
  storage: Storage;
}

/** What follows a stored report: the block he asked for (its own rules) and his alerts. */
export interface ReportHooks {
  block(me: string, targetId: string): Promise<void>;
  raise(userId: string, alert: RaiseAlert): Promise<unknown>;
}

/** The reporter hears the outcome, never the action taken against the other man. */
const OUTCOME_TEXT: Partial<Record<ReportStatus, string>> = {
  actioned: 'We reviewed your report and took action under our rules. Thank you for helping keep FMK safe.',
  dismissed: 'We reviewed your report and found nothing against our rules this time. If he bothers you, you can still block him.',
};

const OWN_LIST = 100;
const STAFF_LIST = 200;

type People = {
  reporter_id: string;
  reporter_name: string | null;
  reporter_anonymous_id: string | null;
  reported_name: string | null;
  reported_anonymous_id: string | null;
};
/** A report as staff see it: both members by name and anonymous id (never an email). */
const forStaff = (r: UserReport, p: People): StaffUserReport => ({
  ...r,
  reporterId: p.reporter_id,
  reporter: { displayName: p.reporter_name, anonymousId: p.reporter_anonymous_id },
  reportedUser: { displayName: p.reported_name, anonymousId: p.reported_anonymous_id },
});

/**
 * Which of these chat photos a report holds as evidence: the only chat photos staff may look at
 * (photo moderation's queue shows the others without their picture).
 */
export async function reportedChatPhotos(db: Db, photoIds: readonly string[]): Promise<Set<string>> {
  return new Set(await repo.reportedPhotoIds(db, photoIds));
}

/**
 * A chat photo's bytes for staff, only when a report holds it as evidence: 404 when there is no
 * such photo or file, 403 when the photo is in no report (staff never read other conversations).
 */
export async function reportedChatPhoto(db: Db, storage: Pick<Storage, 'get'>, photoId: string): Promise<Buffer> {
  const key = await repo.reportedPhotoKey(db, photoId);
  if (!key) {
    if (await chatPhotoExists(db, photoId)) throw forbidden(ReportMessages.photoNotReported, 'not_reported');
    throw notFound(ReportMessages.photoNotFound);
  }
  const bytes = await readObject(storage, key);
  if (!bytes) throw notFound(ReportMessages.photoNotFound);
  return bytes;
}

/** The storage keys of a member's report screenshots: the rows go with his account, the files are for whoever erases it. */
export function reportFileKeys(db: Db, userId: string): Promise<string[]> {
  return repo.screenshotKeysOf(db, userId);
}

/**
 * Reports against a member (spec sections 3, 4). The reporter sees his own
 * reports; staff with reports.view see all, with reports.edit they move them on. The day's limit is counted
 * under the reporter's row lock, so parallel requests cannot pass it.
 */
export class ReportsService {
  constructor(
    private readonly deps: ReportsServiceDeps,
    private readonly hooks: ReportHooks,
  ) {}

  /** A screenshot for a report, kept outside the public files (platform/media/screenshots.ts). */
  async addScreenshot(actor: Actor, upload: Buffer): Promise<ReportScreenshot> {
    requireAccess(actor, 'support.use');
    return storeScreenshot(this.deps.storage, 'reports', actor.id, upload, async (shot) => {
      const row = {
        id: shot.id,
        user_id: actor.id,
        storage_key: shot.storageKey,
        width: shot.width,
        height: shot.height,
        bytes: shot.bytes,
        created_at: this.deps.clock.now(),
      };
      await this.deps.db.transaction().execute(async (trx) => {
        await repo.lockMember(trx, actor.id);
        const since = new Date(row.created_at.getTime() - REPORT_SCREENSHOT_LIMIT.windowMs);
        if ((await repo.countScreenshotsSince(trx, actor.id, since)) >= REPORT_SCREENSHOT_LIMIT.max)
          throw tooManyRequests(ReportMessages.tooManyUploads);
        await repo.insertScreenshot(trx, row);
      });
    });
  }

  /** A screenshot's bytes, to the member who took it or to staff; anyone else: not found. */
  async screenshot(actor: Actor, id: string): Promise<Buffer> {
    const shot = await repo.findScreenshot(this.deps.db, id);
    return readScreenshot(this.deps.storage, actor, shot, ReportMessages.screenshotNotFound);
  }

  async report(actor: Actor, targetId: string, body: CreateUserReport): Promise<UserReport> {
    requireAccess(actor, 'support.use');
    if (targetId === actor.id) throw badRequest(ReportMessages.cannotReportSelf, { id: 'is you' });
    const id = randomUUID();
    const at = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.lockMember(trx, actor.id);
      const since = new Date(at.getTime() - USER_REPORT_LIMIT.windowMs);
      if ((await repo.countReportsSince(trx, actor.id, since)) >= USER_REPORT_LIMIT.max)
        throw tooManyRequests(ReportMessages.tooManyReports);
      if (!(await userExists(trx, targetId))) throw notFound(Messages.userNotFound);
      const shots = await repo.freeScreenshotsOf(trx, actor.id, body.screenshotIds);
      if (shots.length !== body.screenshotIds.length)
        throw badRequest(ReportMessages.screenshotNotFound, { screenshotIds: 'not found' });
      const messages = await repo.messagesBetween(trx, body.messageIds, actor.id, targetId);
      if (messages.length !== body.messageIds.length)
        throw badRequest(ReportMessages.messageNotFound, { messageIds: 'not found' });
      await repo.insertReport(
        trx,
        {
          id,
          reporter_id: actor.id,
          reported_id: targetId,
          reason: body.reason,
          category: body.category,
          description: body.description,
          blocked: body.block,
          created_at: at,
          updated_at: at,
        },
        messages.map((m) => ({
          report_id: id,
          message_id: m.id,
          from_reported: m.sender_id === targetId,
          type: m.type,
          content: m.content,
          photo_id: m.photo_id,
          sent_at: m.created_at,
        })),
      );
      await repo.attachScreenshots(trx, body.screenshotIds, id);
      // Several members reporting him within a week is a pattern for staff to look at.
      const windowStart = new Date(at.getTime() - SUSPICIOUS_REPORT_WINDOW_MS);
      const reporters = await repo.distinctReportersSince(trx, targetId, windowStart);
      if (reporters >= SUSPICIOUS_REPORTERS)
        await repo.openFlag(trx, { id: randomUUID(), user_id: targetId, reporters, created_at: at });
    });
    // After the report is stored with its copied messages: the block deletes the conversation.
    if (body.block) await this.hooks.block(actor.id, targetId);
    await this.hooks.raise(actor.id, {
      type: 'user_reported',
      severity: 'low',
      title: 'Report received',
      message: "Thank you for telling us. Our team reviews every report; we'll let you know when it's done.",
      contentId: id,
      actions: body.block ? [] : aboutHim(targetId).filter((a) => a.type === 'block'),
      dedupeKey: `report:${id}:received`,
    });
    return (await this.present([(await repo.findReport(this.deps.db, id))!]))[0]!;
  }

  async mine(actor: Actor): Promise<UserReport[]> {
    requireAccess(actor, 'support.use');
    return this.present(await repo.listReportsOf(this.deps.db, actor.id, OWN_LIST));
  }

  /** Report triage: a page of reports, filtered and searched on the server (core reportListQuery). */
  async staffList(actor: Actor, query: repo.StaffReportFilter & { page: number }): Promise<StaffReportsPage> {
    requireAccess(actor, 'admin.reports.view');
    const { page, ...filter } = query;
    const { rows, total } = await repo.staffReportsPage(
      this.deps.db,
      filter,
      STAFF_REPORTS_PAGE,
      (page - 1) * STAFF_REPORTS_PAGE,
    );
    const shown = await this.present(rows);
    return { rows: shown.map((r, i) => forStaff(r, rows[i]!)), total, page, pageSize: STAFF_REPORTS_PAGE };
  }

  /** Staff move a report on; returns the report before and after (alerts tell its reporter). */
  async setStatus(
    actor: Actor,
    id: string,
    change: { status: ReportStatus; note?: string | undefined },
    by: StaffBy,
  ): Promise<{ report: StaffUserReport; reporterId: string }> {
    requireAccess(actor, 'admin.reports.edit');
    const { status } = change;
    const before = await repo.findReport(this.deps.db, id);
    if (!before) throw notFound(ReportMessages.reportNotFound);
    if (!canMoveReport(before.status, status)) throw conflict(ReportMessages.badTransition);
    const now = this.deps.clock.now();
    const moved = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.setReportStatus(trx, id, before.status, status, actor.id, now))) return false;
      await auditStaff(trx, by, {
        action: `report_${status}`,
        targetType: 'report',
        targetId: id,
        reason: change.note || `${before.status} → ${status}`,
        now,
      });
      return true;
    });
    if (!moved) throw conflict(ReportMessages.badTransition);
    const row = (await repo.findReport(this.deps.db, id))!;
    const outcome = OUTCOME_TEXT[status];
    if (outcome)
      await this.hooks.raise(row.reporter_id, {
        type: 'user_reported',
        severity: 'low',
        title: 'Your report was reviewed',
        message: outcome,
        contentId: id,
        dedupeKey: `report:${id}:outcome`,
      });
    const [[shown], people] = await Promise.all([this.present([row]), repo.reportPeople(this.deps.db, id)]);
    return { report: forStaff(shown!, { ...row, ...people! }), reporterId: row.reporter_id };
  }

  async flags(actor: Actor): Promise<SafetyFlag[]> {
    requireAccess(actor, 'admin.reports.view');
    return (await repo.listFlags(this.deps.db, STAFF_LIST)).map((f) => ({
      id: f.id,
      userId: f.user_id,
      kind: f.kind,
      reporters: f.reporters,
      status: f.status,
      createdAt: f.created_at.toISOString(),
    }));
  }

  /** The messages members attached to reports, and only those: staff never read other conversations. */
  async evidence(actor: Actor, page: number): Promise<EvidencePage> {
    requireAccess(actor, 'admin.reports.view');
    const [rows, total] = await Promise.all([
      repo.listEvidence(this.deps.db, EVIDENCE_PAGE, (page - 1) * EVIDENCE_PAGE),
      repo.countEvidence(this.deps.db),
    ]);
    return {
      rows: rows.map((m) => ({
        id: m.message_id,
        fromReported: m.from_reported,
        type: m.type,
        content: m.content,
        photoId: m.photo_id,
        sentAt: m.sent_at.toISOString(),
        reportId: m.report_id,
        reportStatus: m.status,
        reportCategory: m.category,
        reportedUserId: m.reported_id,
        reporterId: m.reporter_id,
      })),
      total,
      page,
      pageSize: EVIDENCE_PAGE,
    };
  }

  /** A chat photo a report holds as evidence, to staff who read reports (reportedChatPhoto). */
  async evidencePhoto(actor: Actor, photoId: string): Promise<Buffer> {
    requireAccess(actor, 'admin.reports.view');
    return reportedChatPhoto(this.deps.db, this.deps.storage, photoId);
  }

  private async present(rows: repo.ReportRow[]): Promise<UserReport[]> {
    const ids = rows.map((r) => r.id);
    const [shots, messages] = await Promise.all([repo.screenshotsOf(this.deps.db, ids), repo.messagesOf(this.deps.db, ids)]);
    return rows.map((r) => ({
      id: r.id,
      reportedUserId: r.reported_id,
      reason: r.reason,
      category: r.category,
      description: r.description,
      status: r.status,
      screenshots: shots.filter((s) => s.report_id === r.id).map((s) => ({ id: s.id, width: s.width, height: s.height })),
      messages: messages
        .filter((m) => m.report_id === r.id)
        .map((m) => ({
          id: m.message_id,
          fromReported: m.from_reported,
          type: m.type,
          content: m.content,
          photoId: m.photo_id,
          sentAt: m.sent_at.toISOString(),
        })),
      blocked: r.blocked,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    }));
  }
}
