import { z } from 'zod';
import type { RateLimit } from './account.ts';
import { DAY } from './clock.ts';

/**
 * Reports against a member (spec sections 3, 4): a reason, a category, a description and
 * evidence (screenshots through the photo pipeline, and/or messages of a conversation the
 * reporter is in, copied into the report so deleting them later changes nothing). Staff move a
 * report pending → reviewed → actioned | dismissed.
 */

/** The spec names the field, not its values: the kinds of harm a dating app's staff act on. */
export const REPORT_CATEGORIES = [
  'harassment',
  'spam',
  'scam',
  'fake_profile',
  'inappropriate_content',
  'underage',
  'violence',
  'other',
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];
export const REPORT_CATEGORY_LABELS: Record<ReportCategory, string> = {
  harassment: 'Harassment or threats',
  spam: 'Spam or advertising',
  scam: 'Scam or asking for money',
  fake_profile: 'Fake profile or catfishing',
  inappropriate_content: 'Inappropriate photos or messages',
  underage: 'He may be under 18',
  violence: 'Violence or danger to someone',
  other: 'Something else',
};

export const REPORT_STATUSES = ['pending', 'reviewed', 'actioned', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Where a report may go next: reviewed first, then an outcome; an outcome is final. */
export function canMoveReport(from: ReportStatus, to: ReportStatus): boolean {
  if (from === 'pending') return to !== 'pending';
  if (from === 'reviewed') return to === 'actioned' || to === 'dismissed';
  return false;
}

/** 20 a day: more than any member meets, few enough to stop a script burying someone. */
export const USER_REPORT_LIMIT: RateLimit = { max: 20, windowMs: DAY };
/** Uploads, attached or not: the three a report may carry for each report of the day. */
export const REPORT_SCREENSHOT_LIMIT: RateLimit = { max: 3 * USER_REPORT_LIMIT.max, windowMs: DAY };
export const REPORT_SCREENSHOTS_MAX = 3;
export const REPORT_MESSAGES_MAX = 20;

/**
 * Distinct members reporting one man within a week at which staff get a suspicious_behavior
 * item: three, so one grudge (or one man reporting twice) never does it and a pattern does.
 */
export const SUSPICIOUS_REPORTERS = 3;
export const SUSPICIOUS_REPORT_WINDOW_MS = 7 * DAY;

export const REPORT_REASON_MIN = 3;
export const REPORT_REASON_MAX = 200;
export const REPORT_DESCRIPTION_MAX = 2000;

export const ReportMessages = {
  reasonMissing: `Say in a few words what happened (at least ${REPORT_REASON_MIN} characters).`,
  reasonTooLong: `Keep the reason under ${REPORT_REASON_MAX} characters; add the rest to the description.`,
  descriptionTooLong: `That's too long: at most ${REPORT_DESCRIPTION_MAX} characters.`,
  chooseCategory: 'Choose what kind of problem this is.',
  tooManyScreenshots: `Attach at most ${REPORT_SCREENSHOTS_MAX} screenshots.`,
  tooManyMessages: `Choose at most ${REPORT_MESSAGES_MAX} messages.`,
  screenshotNotFound: 'That screenshot could not be found. Attach it again.',
  messageNotFound: 'Those messages could not be found in your conversation with him.',
  cannotReportSelf: "You can't report yourself.",
  reportNotFound: 'Report not found',
  badTransition: 'A report moves from pending to reviewed, then to actioned or dismissed.',
  tooManyReports: `You've sent ${USER_REPORT_LIMIT.max} reports today. Our team is on them; please try again tomorrow.`,
  tooManyUploads: 'You have uploaded a lot of screenshots today. Please try again tomorrow.',
  photoNotFound: 'That photo could not be found: it was removed.',
  photoNotReported: 'This chat photo is in no report. Staff see chat photos only as report evidence.',
} as const;

const ids = (max: number, tooMany: string, bad: string) =>
  z
    .array(z.string({ error: bad }).min(1, { error: bad }).max(64, { error: bad }), { error: bad })
    .max(max, { error: tooMany })
    .default([])
    // The same id twice is the same evidence once.
    .transform((list) => [...new Set(list)]);

export const createUserReportBody = z.object({
  reason: z
    .string({ error: ReportMessages.reasonMissing })
    .trim()
    .min(REPORT_REASON_MIN, { error: ReportMessages.reasonMissing })
    .max(REPORT_REASON_MAX, { error: ReportMessages.reasonTooLong }),
  category: z.enum(REPORT_CATEGORIES, { error: ReportMessages.chooseCategory }),
  description: z.string().trim().max(REPORT_DESCRIPTION_MAX, { error: ReportMessages.descriptionTooLong }).default(''),
  /** Uploads from POST /reports/screenshots, not yet attached to a report. */
  screenshotIds: ids(REPORT_SCREENSHOTS_MAX, ReportMessages.tooManyScreenshots, ReportMessages.screenshotNotFound),
  /** Messages of the reporter's conversation with the reported man. */
  messageIds: ids(REPORT_MESSAGES_MAX, ReportMessages.tooManyMessages, ReportMessages.messageNotFound),
  /** Report and block in one step (the block service's own rules apply). */
  block: z.boolean().default(false),
});
export type CreateUserReport = z.infer<typeof createUserReportBody>;

export const reportScreenshotSchema = z.object({ id: z.string(), width: z.number().int(), height: z.number().int() });
export type ReportScreenshot = z.infer<typeof reportScreenshotSchema>;

/** A reported message as it was when reported: kept even if it is deleted later. */
export const reportedMessageSchema = z.object({
  id: z.string(),
  fromReported: z.boolean(),
  type: z.enum(['text', 'photo', 'call']),
  content: z.string(),
  /** A photo message's chat photo, which staff open at GET /admin/messages/photos/:id (null: none, or removed). */
  photoId: z.string().nullable().optional(),
  sentAt: z.string(),
});

export const userReportSchema = z.object({
  id: z.string(),
  reportedUserId: z.string(),
  reason: z.string(),
  category: z.enum(REPORT_CATEGORIES),
  description: z.string(),
  status: z.enum(REPORT_STATUSES),
  screenshots: z.array(reportScreenshotSchema),
  messages: z.array(reportedMessageSchema),
  blocked: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserReport = z.infer<typeof userReportSchema>;

/** A member on a report, as staff see him: a name and an anonymous id, never an email. */
const reportPersonSchema = z.object({ displayName: z.string().nullable(), anonymousId: z.string().nullable() });
export const staffUserReportSchema = userReportSchema.extend({
  reporterId: z.string(),
  reporter: reportPersonSchema,
  reportedUser: reportPersonSchema,
});
export type StaffUserReport = z.infer<typeof staffUserReportSchema>;

/** GET /admin/reports: a page of reports, newest first. */
export const STAFF_REPORTS_PAGE = 20;
/**
 * Report triage's filters, applied on the server: status, category, and words (`q`) found in the
 * reason, the description, either member's name or anonymous id, or an exact member or report id.
 */
export const reportListQuery = z.object({
  status: z.enum(REPORT_STATUSES).optional(),
  category: z.enum(REPORT_CATEGORIES).optional(),
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const staffReportsPageSchema = z.object({
  rows: z.array(staffUserReportSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type StaffReportsPage = z.infer<typeof staffReportsPageSchema>;
export const reportStatusBody = z.object({
  status: z.enum(REPORT_STATUSES, { error: ReportMessages.badTransition }),
  /** Staff's note on the decision, kept in the audit log. */
  note: z.string().trim().max(1000).optional(),
});

/** GET /admin/messages: staff page through the messages kept as report evidence, newest first. */
export const EVIDENCE_PAGE = 50;
export const evidenceQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });
/** A reported message with the report it is evidence in: staff see no other message. */
export const evidenceMessageSchema = reportedMessageSchema.extend({
  reportId: z.string(),
  reportStatus: z.enum(REPORT_STATUSES),
  reportCategory: z.enum(REPORT_CATEGORIES),
  reportedUserId: z.string(),
  reporterId: z.string(),
});
export type EvidenceMessage = z.infer<typeof evidenceMessageSchema>;
export const evidencePageSchema = z.object({
  rows: z.array(evidenceMessageSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type EvidencePage = z.infer<typeof evidencePageSchema>;

/** An item for staff: a man whom several members reported within a week. */
export const safetyFlagSchema = z.object({
  id: z.string(),
  userId: z.string(),
  kind: z.literal('suspicious_behavior'),
  reporters: z.number().int(),
  status: z.enum(['open', 'closed']),
  createdAt: z.string(),
});
export type SafetyFlag = z.infer<typeof safetyFlagSchema>;
