import { z } from 'zod';
import { photoSchema } from './api.ts';
import { cardPhotoFilterFields } from './photo-filter.ts';
import { TIER_LIMITS, type Tier, UNLIMITED } from './tiers.ts';

/**
 * Messaging contract, all under /api/v1:
 *   GET    /conversations                         → Conversation[] (50, newest activity first; not deleted for me)
 *   POST   /conversations {userId}                → Conversation (open or create: matched users; Platinum before matching)
 *   GET    /conversations/:id                     → Conversation
 *   DELETE /conversations/:id                     → 204 (delete for me: deletedFor)
 *   GET    /conversations/:id/messages?before&limit → MessagePage (oldest first, 100 a page, paging back by seq)
 *   POST   /conversations/:id/messages            → Message (201; a retry with the same clientId returns the first, 200)
 *   POST   /conversations/:id/read {upTo}         → 204 (read receipts: Premium, respecting showReadReceipts)
 *   POST   /conversations/:id/typing {typing}     → 204 (on for 3 s, then off by itself)
 *   GET    /messages/since?after=SEQ              → MessagePage (catch-up after a reconnect, every conversation)
 *   POST   /messages/photos (multipart "file")    → Photo (the photo pipeline: WebP, no metadata)
 *   GET    /messages/photos/:id?e&s                → the photo's bytes, for a signed URL of a member (no token)
 *   GET    /messages/:id/photo-url                → {url} (a withheld photo, when he chooses to see it)
 *   POST   /users/:id/block, DELETE /users/:id/block, GET /me/blocked
 *   PUT    /me/push-subscription {endpoint, keys}, DELETE /me/push-subscription
 * Live events (the WebSocket): message, typing, read, delivered, conversation, presence.
 */
/** 'call' is the server's line for a call that ended (calls.ts); members send only text and photos. */
export const MESSAGE_TYPES = ['text', 'photo', 'call'] as const;
export const SENDABLE_MESSAGE_TYPES = ['text', 'photo'] as const;
export const MESSAGE_STATUSES = ['sent', 'delivered', 'read'] as const;
export const MAX_MESSAGE_LENGTH = 2000;
export const CONVERSATIONS_PAGE = 50;
export const MESSAGES_PAGE = 100;
export const TYPING_TIMEOUT_MS = 3000;
export const PUSH_TOKEN_REFRESH_MS = 7 * 24 * 60 * 60 * 1000;
export const COULD_NOT_FIND_CONVERSATION = 'Could not find conversation or other participant';
/** A member past the server's send rate (MESSAGE_LIMIT_PER_MINUTE, docs/security.md): 429 with Retry-After. */
export const SENDING_TOO_FAST_TEXT = 'You are sending messages too fast. Wait a moment and try again.';

/**
 * A chat photo as its viewer gets it. Its URL is signed for him and good for a few minutes (the
 * next read brings a fresh one). A photo his content filtering blurs or hides comes without a
 * URL (`withheld`): his app shows the placeholder and asks GET /messages/:id/photo-url when he
 * chooses to see it.
 */
export const chatPhotoSchema = photoSchema.extend({
  url: z.string().nullable(),
  withheld: z.boolean().optional(),
});
export type ChatPhoto = z.infer<typeof chatPhotoSchema>;
export const photoUrlSchema = z.object({ url: z.string() });

export const messageSchema = z.object({
  id: z.string(),
  /** Monotonic across the whole server: the catch-up cursor. */
  seq: z.number().int(),
  conversationId: z.string(),
  senderId: z.string(),
  receiverId: z.string(),
  clientId: z.string(),
  type: z.enum(MESSAGE_TYPES),
  content: z.string(),
  timestamp: z.string(),
  /** What the viewer may know: 'read' only where read receipts apply. */
  status: z.enum(MESSAGE_STATUSES),
  metadata: z.object({ photo: chatPhotoSchema.optional() }),
  /**
   * A text with a link from a man the receiver has not matched, to a receiver with
   * linkPreventionEnabled: shown as plain text with a warning, never as a link.
   */
  linkBlocked: z.boolean().optional(),
});
export type Message = z.infer<typeof messageSchema>;

export const messagePageSchema = z.object({ messages: z.array(messageSchema), hasMore: z.boolean() });
export type MessagePage = z.infer<typeof messagePageSchema>;

export const conversationSchema = z.object({
  id: z.string(),
  type: z.string(),
  mode: z.string(),
  matchType: z.string().nullable(),
  isAccepted: z.boolean(),
  other: z.object({
    uid: z.string(),
    displayName: z.string().nullable(),
    photoURL: z.string().nullable(),
    ...cardPhotoFilterFields,
    /** His verified badge (core/phone.ts). */
    verified: z.boolean(),
    isOnline: z.boolean().nullable(),
  }),
  lastMessage: z
    .object({ id: z.string(), senderId: z.string(), type: z.enum(MESSAGE_TYPES), content: z.string(), timestamp: z.string() })
    .nullable(),
  lastActivity: z.string(),
  /** My unread count. */
  unreadCount: z.number().int(),
  /** The other participant is typing now. */
  typing: z.boolean(),
  createdAt: z.string(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const openConversationBody = z.object({ userId: z.string().min(1).max(64) });
export const sendMessageBody = z
  .object({
    clientId: z.string().min(8).max(64),
    type: z.enum(SENDABLE_MESSAGE_TYPES).default('text'),
    content: z.string().trim().max(MAX_MESSAGE_LENGTH, `Messages can be at most ${MAX_MESSAGE_LENGTH} characters.`).default(''),
    photoId: z.string().max(64).optional(),
  })
  .refine((b) => (b.type === 'text' ? b.content.length > 0 : Boolean(b.photoId)), {
    message: 'Write a message or choose a photo.',
    path: ['content'],
  });
export type SendMessage = z.infer<typeof sendMessageBody>;
export const readBody = z.object({ upTo: z.number().int().min(0) });
export const typingBody = z.object({ typing: z.boolean() });
export const pageQuery = z.object({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGES_PAGE).default(MESSAGES_PAGE),
});
export const sinceQuery = z.object({ after: z.coerce.number().int().min(0) });
export const pushSubscriptionBody = z.object({
  endpoint: z.string().url().max(2000),
  keys: z.object({ p256dh: z.string().min(10).max(200), auth: z.string().min(8).max(100) }),
});
export const blockedUserSchema = z.object({
  uid: z.string(),
  displayName: z.string().nullable(),
  photoURL: z.string().nullable(),
  ...cardPhotoFilterFields,
  blockedAt: z.string(),
});

/** Messages per day by tier (spec section 6): 5 / 50 / unlimited; the counter resets at date change. */
export function messagesLeftToday(tier: Tier, sentToday: number, limit: number = TIER_LIMITS[tier].messagesPerDay): number {
  return limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - sentToday);
}
export function messageLimitText(tier: Tier, limit: number = TIER_LIMITS[tier].messagesPerDay): string {
  return tier === 'free'
    ? `You've sent your ${limit} messages for today. Send up to 50 a day with Premium membership...`
    : `You've sent your ${limit} messages for today. Message without limits with Platinum membership...`;
}

/** Push text over 50 characters is cut to 47 plus '...' (spec section 5). */
export function truncatePushText(text: string): string {
  return text.length > 50 ? `${text.slice(0, 47)}...` : text;
}

/** Who may start a conversation: matched users; Platinum may message before matching. */
export function mayStartConversation(opts: { matched: boolean; tier: Tier }): boolean {
  return opts.matched || opts.tier === 'platinum';
}

/** Read receipts (spec 6): a Premium or Platinum sender sees 'read' when the reader allows receipts. */
export function showsReadReceipts(senderTier: Tier, readerAllowsReceipts: boolean): boolean {
  return senderTier !== 'free' && readerAllowsReceipts;
}

/** Refusal of a conversation with an unmatched user to a Free or Premium member (spec section 6). */
export const NOT_MATCHED_TEXT = 'You can message him once you match. Message before matching with Platinum membership...';
export const CANNOT_BLOCK_SELF = "You can't block yourself.";
/** Messages per catch-up page (GET /messages/since). */
export const CATCH_UP_PAGE = 500;
