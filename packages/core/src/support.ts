import { z } from 'zod';
import type { RateLimit } from './account.ts';
import { DAY } from './clock.ts';
import { TIERS, type Tier } from './tiers.ts';

/**
 * Support (spec sections 2, 6): bug reports and feedback from /settings/bugs-feedback, and the
 * support threads 'Contact support' opens from /settings/help. Staff read and answer both in the
 * admin area; Platinum members' threads come first (the tier table's "priority support").
 */

export const FEEDBACK_KINDS = ['bug', 'feedback'] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];

/** Where in the app a report is about: the app's features, as the bottom navigation and settings name them. */
export const FEEDBACK_CATEGORIES = [
  'grid',
  'game',
  'messages',
  'cruise',
  'health',
  'activity',
  'profile',
  'account',
  'safety',
  'other',
] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];
export const FEEDBACK_CATEGORY_LABELS: Record<FeedbackCategory, string> = {
  grid: 'Grid',
  game: 'Fuck, marry, kill',
  messages: 'Messages and matches',
  cruise: 'Cruise',
  health: 'Health',
  activity: 'Activity log',
  profile: 'My profile',
  account: 'Account and settings',
  safety: 'Safety and blocking',
  other: 'Something else',
};

/** A report's life in the staff's hands; the member sees each one with its label. */
export const FEEDBACK_STATUSES = ['new', 'in_review', 'resolved', 'closed'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];
export const FEEDBACK_STATUS_LABELS: Record<FeedbackStatus, string> = {
  new: 'Received',
  in_review: 'Being looked at',
  resolved: 'Fixed or done',
  closed: 'Closed',
};

/** A support thread: open while the member waits, answered once staff wrote last, closed by staff. */
export const THREAD_STATUSES = ['open', 'answered', 'closed'] as const;
export type ThreadStatus = (typeof THREAD_STATUSES)[number];

/** Enough for a member who hits several problems in a day; a script filing hundreds is stopped. */
export const FEEDBACK_LIMIT: RateLimit = { max: 10, windowMs: DAY };
export const THREAD_LIMIT: RateLimit = { max: 5, windowMs: DAY };
export const SUPPORT_MESSAGE_LIMIT: RateLimit = { max: 50, windowMs: DAY };
/** Uploads, attached or not: a couple of tries for each report of the day. */
export const SCREENSHOT_LIMIT: RateLimit = { max: 2 * FEEDBACK_LIMIT.max, windowMs: DAY };

export const FEEDBACK_TEXT_MIN = 10;
export const FEEDBACK_TEXT_MAX = 4000;
export const SUPPORT_SUBJECT_MAX = 120;
export const SUPPORT_MESSAGE_MAX = 4000;

/** Platinum includes priority support (spec section 6): derived from the member's tier on the server. */
export function isPrioritySupport(tier: Tier): boolean {
  return tier === 'platinum';
}

export const SupportMessages = {
  textTooShort: `Tell us a little more: at least ${FEEDBACK_TEXT_MIN} characters.`,
  textTooLong: `That's too long: at most ${FEEDBACK_TEXT_MAX} characters.`,
  chooseKind: 'Choose whether this is a bug or feedback.',
  chooseCategory: 'Choose what this is about.',
  subjectMissing: 'Give your question a short subject.',
  subjectTooLong: `Keep the subject under ${SUPPORT_SUBJECT_MAX} characters.`,
  messageMissing: 'Write your message first.',
  messageTooLong: `That's too long: at most ${SUPPORT_MESSAGE_MAX} characters.`,
  screenshotNotFound: 'That screenshot could not be found. Attach it again.',
  screenshotUsed: 'That screenshot is already attached to another report. Attach it again.',
  reportNotFound: 'Report not found',
  threadNotFound: 'Conversation with support not found',
  threadClosed: 'This conversation is closed. Start a new one from Help if you still need us.',
  tooManyReports: `You've sent ${FEEDBACK_LIMIT.max} reports today. Thank you! Please try again tomorrow.`,
  tooManyThreads: `You've started ${THREAD_LIMIT.max} conversations with support today. Please continue in one of them.`,
  tooManyMessages: 'You have sent a lot of messages today. Please wait for our answer.',
  tooManyScreenshots: 'You have uploaded a lot of screenshots today. Please try again tomorrow.',
} as const;

const text = (min: number, max: number, short: string, long: string) =>
  z.string({ error: short }).trim().min(min, { error: short }).max(max, { error: long });

const appVersion = z.string().trim().max(40).default('');

export const createFeedbackBody = z.object({
  kind: z.enum(FEEDBACK_KINDS, { error: SupportMessages.chooseKind }),
  category: z.enum(FEEDBACK_CATEGORIES, { error: SupportMessages.chooseCategory }),
  text: text(FEEDBACK_TEXT_MIN, FEEDBACK_TEXT_MAX, SupportMessages.textTooShort, SupportMessages.textTooLong),
  /** An upload from POST /support/screenshots, not yet attached to a report. */
  screenshotId: z.uuid({ error: SupportMessages.screenshotNotFound }).optional(),
  /** The web bundle's version, filled in by the app; the browser is read from the request. */
  appVersion,
});

export const screenshotSchema = z.object({ id: z.string(), width: z.number().int(), height: z.number().int() });
export type Screenshot = z.infer<typeof screenshotSchema>;

export const feedbackSchema = z.object({
  id: z.string(),
  kind: z.enum(FEEDBACK_KINDS),
  category: z.enum(FEEDBACK_CATEGORIES),
  text: z.string(),
  status: z.enum(FEEDBACK_STATUSES),
  screenshot: screenshotSchema.nullable(),
  appVersion: z.string(),
  browser: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

/** Who wrote it, for staff: the anonymous id and name, never the email. */
export const supportMemberSchema = z.object({
  uid: z.string(),
  anonymousId: z.string().nullable(),
  displayName: z.string().nullable(),
  tier: z.string(),
});

export const staffFeedbackSchema = feedbackSchema.extend({ member: supportMemberSchema });
export type StaffFeedback = z.infer<typeof staffFeedbackSchema>;

/** Staff's lists of bug reports and feedback, and of support threads: a page, filtered and searched on the server. */
export const SUPPORT_STAFF_PAGE = 25;
const staffPage = z.coerce.number().int().min(1).max(10_000).default(1);
/** Words found in the text (or a thread's subject), the member's name or anonymous id. */
const staffSearch = z.string().trim().max(200).optional();
const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), total: z.number(), page: z.number(), pageSize: z.number() });

export const feedbackListQuery = z.object({
  status: z.enum(FEEDBACK_STATUSES).optional(),
  kind: z.enum(FEEDBACK_KINDS).optional(),
  category: z.enum(FEEDBACK_CATEGORIES).optional(),
  q: staffSearch,
  page: staffPage,
});
export const staffFeedbackPageSchema = pageOf(staffFeedbackSchema);
export type StaffFeedbackPage = z.infer<typeof staffFeedbackPageSchema>;
export const feedbackStatusBody = z.object({ status: z.enum(FEEDBACK_STATUSES) });

export const createThreadBody = z.object({
  subject: text(1, SUPPORT_SUBJECT_MAX, SupportMessages.subjectMissing, SupportMessages.subjectTooLong),
  text: text(1, SUPPORT_MESSAGE_MAX, SupportMessages.messageMissing, SupportMessages.messageTooLong),
});
export const supportMessageBody = z.object({
  text: text(1, SUPPORT_MESSAGE_MAX, SupportMessages.messageMissing, SupportMessages.messageTooLong),
});

export const supportMessageSchema = z.object({
  id: z.string(),
  from: z.enum(['member', 'staff']),
  text: z.string(),
  createdAt: z.string(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const threadSchema = z.object({
  id: z.string(),
  subject: z.string(),
  status: z.enum(THREAD_STATUSES),
  priority: z.boolean(),
  /** Messages from the other side the reader has not opened yet. */
  unread: z.number().int(),
  lastMessageAt: z.string(),
  createdAt: z.string(),
});
export type SupportThread = z.infer<typeof threadSchema>;
export const threadDetailSchema = threadSchema.extend({ messages: z.array(supportMessageSchema) });
export type SupportThreadDetail = z.infer<typeof threadDetailSchema>;

export const staffThreadSchema = threadSchema.extend({ member: supportMemberSchema });
export const staffThreadDetailSchema = staffThreadSchema.extend({ messages: z.array(supportMessageSchema) });
/** Staff's inbox: Platinum (priority support) first, then the latest activity; by status, words and tier. */
export const threadListQuery = z.object({
  status: z.enum(THREAD_STATUSES).optional(),
  tier: z.enum(TIERS).optional(),
  q: staffSearch,
  page: staffPage,
});
export const staffThreadsPageSchema = pageOf(staffThreadSchema);
export type StaffThreadsPage = z.infer<typeof staffThreadsPageSchema>;
export const threadStatusBody = z.object({ status: z.literal('closed') });
