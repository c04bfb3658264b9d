import { z } from 'zod';

/**
 * Photo moderation contract, staff only (admin.content.approve), under /api/v1:
 *   GET   /admin/moderation/items?status=pending   → ModerationItem[] (oldest first, 100 at most)
 *   PATCH /admin/moderation/items/:id {decision, notes?} → ModerationItem
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
  /** The photo, for staff to look at (null once removed). */
  url: z.string().nullable(),
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

export const moderationListQuery = z.object({ status: z.enum(MODERATION_STATUSES).default('pending') });
export const moderationDecisionBody = z.object({
  decision: z.enum(['approve', 'reject']),
  notes: z.string().trim().max(1000).optional(),
});
export type ModerationDecision = z.infer<typeof moderationDecisionBody>['decision'];

export const ModerationMessages = {
  itemNotFound: 'Moderation item not found',
  alreadyDecided: 'This item has already been decided',
} as const;
