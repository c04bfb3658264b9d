import { z } from 'zod';

/**
 * Photo moderation contract, staff only, under /api/v1:
 *   GET   /admin/moderation/items?status=pending&page=1 → ModerationPage (MODERATION_PAGE a page; pending oldest first,
 *         decided newest first, ties by id; content.view)
 *   GET   /admin/moderation/items/:id/photo        → image/webp, a reported chat photo only (content.view)
 *   PATCH /admin/moderation/items/:id {decision, notes?} → ModerationItem (content.approve)
 * A decision is taken once: approving a held photo shows it to others, rejecting removes it.
 * The scores are documented in @fmk/core/moderation (AiAnalysis).
 */
export const MODERATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const MODERATION_CONTENT_TYPES = ['profile_photo', 'chat_photo'] as const;

export const aiAnalysisSchema = z.object({
  nudity: z.number().nullable(),
  violence: z.number().nullable(),
  hate_speech: z.number(),
  spam: z.number(),
  underage: z.number(),
});

export const moderationItemSchema = z.object({
  id: z.string(),
  contentType: z.enum(MODERATION_CONTENT_TYPES),
  contentId: z.string(),
  userId: z.string(),
  /** A profile photo's public address, for staff to look at (null once removed, and for every chat photo). */
  url: z.string().nullable(),
  /**
   * A chat photo is private to its conversation: staff open it, with the staff token, at this API
   * path (under /api/v1) only when a report holds it as evidence; null otherwise.
   */
  photoPath: z.string().nullable(),
  /** For a chat photo, whether a report holds it as evidence; null for a profile photo. */
  reported: z.boolean().nullable(),
  status: z.enum(MODERATION_STATUSES),
  flaggedReason: z.string().nullable(),
  confidence: z.number(),
  aiAnalysis: aiAnalysisSchema,
  moderatorId: z.string().nullable(),
  moderatorNotes: z.string().nullable(),
  timestamp: z.string(),
  reviewedAt: z.string().nullable(),
});
export type ModerationItem = z.infer<typeof moderationItemSchema>;

/** How many items a page of a moderation queue holds. */
export const MODERATION_PAGE = 50;
/** The furthest page asked for: 500,000 items, far past any queue; a larger number is a mistake. */
export const MODERATION_MAX_PAGE = 10_000;
const pageError = `page must be a whole number from 1 to ${MODERATION_MAX_PAGE}`;
export const moderationListQuery = z.object({
  status: z.enum(MODERATION_STATUSES).default('pending'),
  page: z.coerce
    .number({ error: pageError })
    .int({ error: pageError })
    .min(1, { error: pageError })
    .max(MODERATION_MAX_PAGE, { error: pageError })
    .default(1),
});
export const moderationPageSchema = z.object({
  rows: z.array(moderationItemSchema),
  /** The items of that status in all. */
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type ModerationPage = z.infer<typeof moderationPageSchema>;
export const moderationDecisionBody = z.object({
  decision: z.enum(['approve', 'reject']),
  notes: z.string().trim().max(1000).optional(),
});
export type ModerationDecision = z.infer<typeof moderationDecisionBody>['decision'];

export const ModerationMessages = {
  itemNotFound: 'Moderation item not found',
  alreadyDecided: 'This item has already been decided',
  photoRemoved: 'This photo was removed.',
} as const;
