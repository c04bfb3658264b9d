import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type Clock,
  type createFeedbackBody,
  type createThreadBody,
  effectiveTier,
  FEEDBACK_LIMIT,
  type Feedback,
  type FeedbackStatus,
  isPrioritySupport,
  type RateLimit,
  SCREENSHOT_LIMIT,
  type Screenshot,
  type StaffFeedback,
  type StaffFeedbackPage,
  type StaffThreadsPage,
  SUPPORT_MESSAGE_LIMIT,
  SUPPORT_STAFF_PAGE,
  type SupportMessage,
  SupportMessages,
  type SupportThread,
  type SupportThreadDetail,
  THREAD_LIMIT,
  type ThreadStatus,
  TIERS,
  type Tier,
} from '@fmk/core';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { auditStaff, type StaffBy } from '../../platform/audit/repo.ts';
import { type Bus, withEvents } from '../../platform/bus.ts';
import { badRequest, conflict, notFound, tooManyRequests } from '../../platform/errors.ts';
import { loadRules } from '../../platform/flags.ts';
import { readScreenshot, storeScreenshot } from '../../platform/media/screenshots.ts';
import type { Storage } from '../../platform/storage.ts';
import * as repo from './repo.ts';

export interface SupportServiceDeps {
  db: Db;
  clock: Clock;
  storage: Storage;
  bus: Bus;
}

/**
 * The storage keys of a member's screenshots: the rows go with his account (foreign keys), the
 * files are for whoever erases it to delete.
 */
export function supportFileKeys(db: Db, userId: string): Promise<string[]> {
  return repo.screenshotKeysOf(db, userId);
}

/** How many of his own reports and threads a member's screens list; staff's lists come a page at a time. */
const OWN_LIST = 100;
const STAFF_PAGE = SUPPORT_STAFF_PAGE;
/** The browser as its User-Agent names it; longer strings are cut, never refused. */
const BROWSER_MAX = 300;

type StaffThread = SupportThread & { member: StaffFeedback['member'] };
type StaffThreadDetail = StaffThread & { messages: SupportMessage[] };

const tierOf = (r: { member_tier: Tier; member_lifetime_premium: boolean }) =>
  effectiveTier({ subscriptionTier: r.member_tier, hasLifetimePremium: r.member_lifetime_premium });

const memberOf = (r: repo.ReportRow | repo.ThreadRow): StaffFeedback['member'] => ({
  uid: r.member_id,
  anonymousId: r.member_anonymous_id,
  displayName: r.member_display_name,
  tier: tierOf(r),
});

function presentReport(r: repo.ReportRow): Feedback {
  return {
    id: r.id,
    kind: r.kind,
    category: r.category as Feedback['category'],
    text: r.text,
    status: r.status,
    screenshot:
      r.screenshot_id && r.screenshot_width !== null && r.screenshot_height !== null
        ? { id: r.screenshot_id, width: r.screenshot_width, height: r.screenshot_height }
        : null,
    appVersion: r.app_version,
    browser: r.browser,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

function presentThread(r: repo.ThreadRow): SupportThread {
  return {
    id: r.id,
    subject: r.subject,
    status: r.status,
    // Derived from the member's tier on the server at every read: an upgrade counts at once.
    priority: isPrioritySupport(tierOf(r)),
    unread: Number(r.unread ?? 0),
    lastMessageAt: r.last_message_at.toISOString(),
    createdAt: r.created_at.toISOString(),
  };
}

const presentMessage = (m: { id: string; from_staff: boolean; text: string; created_at: Date }): SupportMessage => ({
  id: m.id,
  from: m.from_staff ? 'staff' : 'member',
  text: m.text,
  createdAt: m.created_at.toISOString(),
});

/**
 * Support (spec sections 2, 6): a member's bug reports and feedback and his threads with staff.
 * A member reaches only his own (another's id is not found, so ids tell nothing); staff reach all
 * through admin.reports.view (reading) and admin.reports.edit (answering, closing, status). Each counted write is counted under the member's row lock.
 */
export class SupportService {
  constructor(private readonly deps: SupportServiceDeps) {}

  /** Counts under the member's lock and refuses (429) past the day's limit; `fn` writes in the same transaction. */
  private limited<T>(
    actor: Actor,
    limit: RateLimit,
    count: typeof repo.countReportsSince,
    message: string,
    fn: (trx: Db) => Promise<T>,
  ) {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      await repo.lockMember(trx, actor.id);
      if ((await count(trx, actor.id, new Date(now.getTime() - limit.windowMs))) >= limit.max) throw tooManyRequests(message);
      return fn(trx);
    });
  }

  // --- bug reports and feedback

  /** A screenshot for a report, kept outside the public files (platform/media/screenshots.ts). */
  async addScreenshot(actor: Actor, upload: Buffer): Promise<Screenshot> {
    requireAccess(actor, 'support.use');
    return storeScreenshot(this.deps.storage, 'support', actor.id, upload, (shot) => {
      const row = { ...shot, userId: actor.id, at: this.deps.clock.now() };
      return this.limited(actor, SCREENSHOT_LIMIT, repo.countScreenshotsSince, SupportMessages.tooManyScreenshots, (trx) =>
        repo.insertScreenshot(trx, row),
      );
    });
  }

  /** A screenshot's bytes, to the member who sent it or to support staff; anyone else: not found. */
  async screenshot(actor: Actor, id: string): Promise<Buffer> {
    const shot = await repo.findScreenshot(this.deps.db, id);
    return readScreenshot(this.deps.storage, actor, shot, SupportMessages.screenshotNotFound);
  }

  async createReport(actor: Actor, body: z.infer<typeof createFeedbackBody>, userAgent: string | undefined): Promise<Feedback> {
    requireAccess(actor, 'support.use');
    const id = randomUUID();
    await this.limited(actor, FEEDBACK_LIMIT, repo.countReportsSince, SupportMessages.tooManyReports, async (trx) => {
      if (body.screenshotId) {
        const shot = await repo.findScreenshot(trx, body.screenshotId);
        if (shot?.user_id !== actor.id) throw badRequest(SupportMessages.screenshotNotFound, { screenshotId: 'not found' });
        if (shot.report_id) throw badRequest(SupportMessages.screenshotUsed, { screenshotId: 'already attached' });
      }
      await repo.insertReport(trx, {
        id,
        userId: actor.id,
        kind: body.kind,
        category: body.category,
        text: body.text,
        screenshotId: body.screenshotId ?? null,
        appVersion: body.appVersion,
        browser: (userAgent ?? '').slice(0, BROWSER_MAX),
        at: this.deps.clock.now(),
      });
    });
    return presentReport((await repo.findReport(this.deps.db, id))!);
  }

  async myReports(actor: Actor): Promise<Feedback[]> {
    requireAccess(actor, 'support.use');
    return (await repo.listReportsOf(this.deps.db, actor.id, OWN_LIST)).map(presentReport);
  }

  /** Bugs and feedback for staff: a page, filtered and searched on the server. */
  async staffReports(actor: Actor, query: repo.StaffFeedbackFilter & { page: number }): Promise<StaffFeedbackPage> {
    requireAccess(actor, 'admin.reports.view');
    const { page, ...filter } = query;
    const { rows, total } = await repo.staffReportsPage(this.deps.db, filter, STAFF_PAGE, (page - 1) * STAFF_PAGE);
    return { rows: rows.map((r) => ({ ...presentReport(r), member: memberOf(r) })), total, page, pageSize: STAFF_PAGE };
  }

  async setReportStatus(actor: Actor, id: string, status: FeedbackStatus, by: StaffBy): Promise<StaffFeedback> {
    requireAccess(actor, 'admin.reports.edit');
    const now = this.deps.clock.now();
    const found = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.setReportStatus(trx, id, status, now))) return false;
      await auditStaff(trx, by, { action: 'feedback_status', targetType: 'feedback', targetId: id, reason: status, now });
      return true;
    });
    if (!found) throw notFound(SupportMessages.reportNotFound);
    const r = (await repo.findReport(this.deps.db, id))!;
    return { ...presentReport(r), member: memberOf(r) };
  }

  // --- support threads

  async createThread(actor: Actor, body: z.infer<typeof createThreadBody>): Promise<SupportThreadDetail> {
    requireAccess(actor, 'support.use');
    const id = randomUUID();
    const at = this.deps.clock.now();
    await this.limited(actor, THREAD_LIMIT, repo.countThreadsSince, SupportMessages.tooManyThreads, async (trx) => {
      await repo.insertThread(trx, { id, userId: actor.id, subject: body.subject, at });
      await repo.insertMessage(trx, { id: randomUUID(), threadId: id, staffId: null, text: body.text, at });
    });
    return this.openThread(actor, id);
  }

  async myThreads(actor: Actor): Promise<SupportThread[]> {
    requireAccess(actor, 'support.use');
    return (await repo.listThreadsOf(this.deps.db, actor.id, OWN_LIST)).map(presentThread);
  }

  /** His own thread with its messages; opening it reads staff's answers (unread 0 from now). */
  async openThread(actor: Actor, id: string): Promise<SupportThreadDetail> {
    requireAccess(actor, 'support.use');
    const t = await this.ownThread(this.deps.db, actor, id);
    const messages = await repo.threadMessages(this.deps.db, id);
    if (Number(t.unread) > 0) await repo.markRead(this.deps.db, id, 'member', this.deps.clock.now());
    return { ...presentThread(t), unread: 0, messages: messages.map(presentMessage) };
  }

  async writeToThread(actor: Actor, id: string, text: string): Promise<SupportThreadDetail> {
    requireAccess(actor, 'support.use');
    await this.limited(
      actor,
      SUPPORT_MESSAGE_LIMIT,
      repo.countMemberMessagesSince,
      SupportMessages.tooManyMessages,
      async (trx) => {
        const t = await this.ownThread(trx, actor, id);
        if (t.status === 'closed') throw conflict(SupportMessages.threadClosed);
        const at = this.deps.clock.now();
        await repo.insertMessage(trx, { id: randomUUID(), threadId: id, staffId: null, text, at });
        await repo.touchThread(trx, id, { status: 'open', at, side: 'member' });
      },
    );
    return this.openThread(actor, id);
  }

  private async ownThread(db: Db, actor: Actor, id: string): Promise<repo.ThreadRow> {
    const t = await repo.findThread(db, id, 'member');
    if (t?.user_id !== actor.id) throw notFound(SupportMessages.threadNotFound);
    return t;
  }

  /** Staff's queue: Platinum members' threads first; a page, filtered and searched on the server. */
  async staffThreads(
    actor: Actor,
    query: { status?: ThreadStatus | undefined; tier?: Tier | undefined; q?: string | undefined; page: number },
  ): Promise<StaffThreadsPage> {
    requireAccess(actor, 'admin.reports.view');
    const priority: Tier[] = [];
    for (const tier of TIERS) if ((await loadRules(this.deps.db, tier)).has.prioritySupport) priority.push(tier);
    const { page, ...filter } = query;
    const { rows, total } = await repo.staffThreadsPage(
      this.deps.db,
      filter,
      { limit: STAFF_PAGE, offset: (page - 1) * STAFF_PAGE },
      priority,
    );
    return { rows: rows.map((t) => ({ ...presentThread(t), member: memberOf(t) })), total, page, pageSize: STAFF_PAGE };
  }

  /** One thread for staff; opening it reads the member's messages on staff's side. */
  async staffThread(actor: Actor, id: string): Promise<StaffThreadDetail> {
    requireAccess(actor, 'admin.reports.view');
    const t = await repo.findThread(this.deps.db, id, 'staff');
    if (!t) throw notFound(SupportMessages.threadNotFound);
    const messages = await repo.threadMessages(this.deps.db, id);
    if (Number(t.unread) > 0) await repo.markRead(this.deps.db, id, 'staff', this.deps.clock.now());
    return { ...presentThread(t), unread: 0, member: memberOf(t), messages: messages.map(presentMessage) };
  }

  /** The answer commits with its audit row, which records that staff wrote, never what (the member's conversation). */
  async staffReply(actor: Actor, id: string, text: string, by: StaffBy): Promise<StaffThreadDetail> {
    requireAccess(actor, 'admin.reports.edit');
    await withEvents(this.deps.db, this.deps.bus, async (trx, emit) => {
      const t = await repo.findThread(trx, id, 'staff');
      if (!t) throw notFound(SupportMessages.threadNotFound);
      if (t.status === 'closed') throw conflict(SupportMessages.threadClosed);
      const at = this.deps.clock.now();
      await repo.insertMessage(trx, { id: randomUUID(), threadId: id, staffId: actor.id, text, at });
      await repo.touchThread(trx, id, { status: 'answered', at, side: 'staff' });
      await auditStaff(trx, by, {
        action: 'support_reply',
        targetType: 'support_thread',
        targetId: id,
        reason: `reply of ${text.length} characters`,
        now: at,
      });
      // The member's open tabs show the answer at once (a toast and the unread count).
      emit([t.user_id], { type: 'support', threadId: id, subject: t.subject });
    });
    return this.staffThread(actor, id);
  }

  async closeThread(actor: Actor, id: string, by: StaffBy): Promise<StaffThreadDetail> {
    requireAccess(actor, 'admin.reports.edit');
    const now = this.deps.clock.now();
    const found = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.setThreadStatus(trx, id, 'closed'))) return false;
      await auditStaff(trx, by, { action: 'support_close', targetType: 'support_thread', targetId: id, reason: 'closed', now });
      return true;
    });
    if (!found) throw notFound(SupportMessages.threadNotFound);
    return this.staffThread(actor, id);
  }
}
