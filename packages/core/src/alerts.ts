import { z } from 'zod';
import { DAY, HOUR } from './clock.ts';

/**
 * Safety alerts (spec sections 3, 4, 9): each one raised by a real event on
 * the server, never by a timer. A member reads them in the Safety centre: unread → read →
 * resolved, or dismissed (gone from his list).
 */

export const ALERT_TYPES = [
  'safety_reminder',
  'suspicious_behavior',
  'location_warning',
  'content_flagged',
  'user_reported',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const ALERT_SEVERITIES = ['low', 'medium', 'high'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERT_STATES = ['unread', 'read', 'resolved', 'dismissed'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** What a member may do from an alert; `userId` names the man a block or report is about. */
export const ALERT_ACTION_TYPES = ['block', 'report', 'open_settings', 'review_photo'] as const;
export type AlertActionType = (typeof ALERT_ACTION_TYPES)[number];
export const alertActionSchema = z.object({
  id: z.string(),
  label: z.string(),
  type: z.enum(ALERT_ACTION_TYPES),
  severity: z.enum(ALERT_SEVERITIES),
  userId: z.string().optional(),
});
export type AlertAction = z.infer<typeof alertActionSchema>;

export const alertSchema = z.object({
  id: z.string(),
  type: z.enum(ALERT_TYPES),
  severity: z.enum(ALERT_SEVERITIES),
  title: z.string(),
  message: z.string(),
  state: z.enum(ALERT_STATES),
  isRead: z.boolean(),
  isResolved: z.boolean(),
  contentId: z.string().nullable(),
  actions: z.array(alertActionSchema),
  createdAt: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;

export const AlertMessages = {
  notFound: 'Alert not found',
  badState: 'Mark an alert read, resolved or dismissed.',
} as const;

/** A member moves his alert on; a dismissed alert is gone (not found from then on). */
export const alertStateBody = z.object({
  state: z.enum(['read', 'resolved', 'dismissed'], { error: AlertMessages.badState }),
});

/** Whether an alert may go from one state to another: read only from unread; dismissed is final. */
export function canMoveAlert(from: AlertState, to: AlertState): boolean {
  if (from === 'dismissed' || to === 'unread' || from === to) return false;
  if (to === 'read') return from === 'unread';
  return true;
}

// --- spam and scam patterns in messages (pure: the messaging send path asks them through safety)

/** The same text to this many different men within an hour is a blast, not a conversation. */
export const SAME_TEXT_RECIPIENTS = 5;
export const SAME_TEXT_WINDOW_MS = HOUR;
/** An account this young messaging this many men within a day ("dozens"). */
export const NEW_ACCOUNT_AGE_MS = 3 * DAY;
export const NEW_ACCOUNT_RECIPIENTS = 24;
export const NEW_ACCOUNT_WINDOW_MS = DAY;
/** Open reports from this many different members make a sender worth a warning. */
export const REPORTED_SENDER_REPORTERS = 2;

/** The text as a spammer's copies compare: case, spacing and punctuation aside. */
export function normaliseText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const LINK_RE = /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]{2,}\.(?:com|net|org|io|co|me|ly|xyz|info|biz|link|site|online|app|ru|tk)\b/i;
const PAYMENT_RE =
  /\b(?:cash\s?app|venmo|paypal|zelle|western\s+union|moneygram|gift\s?cards?|bitcoin|btc|crypto|usdt|wire\s+transfer|bank\s+transfer|send\s+(?:me\s+)?(?:money|cash|\$)|pay\s+me|onlyfans)\b|[$€£]\s?\d/i;

export function hasLink(text: string): boolean {
  return LINK_RE.test(text);
}
/**
 * Link prevention (communicationSafety.linkPreventionEnabled): a text with a link from a man the
 * receiver has not matched reaches him as plain, unclickable text with a warning.
 */
export function linkPrevented(f: { text: string; matched: boolean; receiverPrevents: boolean }): boolean {
  return f.receiverPrevents && !f.matched && hasLink(f.text);
}

export function asksForPayment(text: string): boolean {
  return PAYMENT_RE.test(text);
}

export type SpamSignal = 'same_text_blast' | 'link_from_non_match' | 'payment_from_non_match' | 'new_account_blast' | 'reported';

export interface SenderFacts {
  /** The message just sent. */
  text: string;
  /** Whether sender and receiver are matched (a link between matches is ordinary). */
  isMatch: boolean;
  accountAgeMs: number;
  /** Different men who got this same (normalised) text from him within SAME_TEXT_WINDOW_MS, this one included. */
  sameTextRecipients: number;
  /** Different men he messaged within NEW_ACCOUNT_WINDOW_MS, this one included. */
  recipientsToday: number;
  /** Different members with open reports against him. */
  openReporters: number;
}

/** Which patterns a sent message matches: none means no alert. */
export function spamSignals(f: SenderFacts): SpamSignal[] {
  const out: SpamSignal[] = [];
  if (f.sameTextRecipients >= SAME_TEXT_RECIPIENTS && normaliseText(f.text) !== '') out.push('same_text_blast');
  if (!f.isMatch && hasLink(f.text)) out.push('link_from_non_match');
  if (!f.isMatch && asksForPayment(f.text)) out.push('payment_from_non_match');
  if (f.accountAgeMs < NEW_ACCOUNT_AGE_MS && f.recipientsToday >= NEW_ACCOUNT_RECIPIENTS) out.push('new_account_blast');
  if (f.openReporters >= REPORTED_SENDER_REPORTERS) out.push('reported');
  return out;
}

const SIGNAL_TEXT: Record<SpamSignal, string> = {
  same_text_blast: 'he sent the same message to many men within the hour',
  link_from_non_match: 'he sent you a link before you matched',
  payment_from_non_match: 'he asked about money or payment before you matched',
  new_account_blast: 'his new account is messaging dozens of men',
  reported: 'several members have reported him',
};

/** The alert's words for the receiver: what was seen, never who reported or what staff did. */
export function suspiciousMessageText(signals: readonly SpamSignal[]): string {
  const reasons = signals.map((s) => SIGNAL_TEXT[s]).join('; ');
  return `Be careful with someone messaging you: ${reasons}. Never send money, and block or report him if something feels wrong.`;
}

/** Money and repeated reports are a scam risk now; the other patterns are worth knowing. */
export function suspiciousSeverity(signals: readonly SpamSignal[]): 'medium' | 'high' {
  return signals.includes('payment_from_non_match') || signals.includes('reported') ? 'high' : 'medium';
}

// --- content_flagged: photo moderation told the owner what happened to his photo

/** Why a photo was held, in the owner's words (the moderation reasons of core/moderation). */
const FLAG_REASON_TEXT: Record<string, string> = {
  nudity: 'it may show nudity',
  underage: 'its text suggests someone under 18',
  hate_speech: 'its text may contain a slur',
  spam: 'its text looks like advertising or contact details',
};

/** The words of a content_flagged alert: what happened to which photo and why (the flagged reasons, in order). */
export function contentFlaggedAlert(
  kind: 'held' | 'rejected',
  contentType: 'profile_photo' | 'chat_photo',
  reasons: readonly string[],
): { title: string; message: string; severity: AlertSeverity } {
  const photo = contentType === 'profile_photo' ? 'profile photo' : 'chat photo';
  const why = reasons.map((r) => FLAG_REASON_TEXT[r] ?? r.replace(/_/g, ' ')).join(' and ');
  const because = why ? ` because ${why}` : '';
  if (kind === 'held')
    return {
      title: `Your ${photo} is in review`,
      message:
        contentType === 'profile_photo'
          ? `We're checking one of your photos${because}. Until our team approves it, only you can see it.`
          : `We're checking a photo you sent${because}. Our team will look at it shortly.`,
      severity: 'low',
    };
  return {
    title: `Your ${photo} was removed`,
    message: `Our team removed one of your photos${because}, as it goes against our photo guidelines. You can add another one.`,
    severity: 'medium',
  };
}

// --- location_warning and safety_reminder

/**
 * Phrases that mean two men are arranging to meet (the chat side of "before a first meetup").
 * English only; matched on the normalised text (case, punctuation aside), whole words:
 * - "meet up", "meetup", "meet (you|u|tonight|today|tomorrow|later|now|soon|there|irl|in person)",
 *   "(wanna|want to|let's|lets|should we|can we|could we|shall we) meet";
 * - "hook up", "hookup", "hang out";
 * - "come over", "come to mine", "come round", "(my|your|ur) place", "host or travel", "can you host", "i can host";
 * - "grab a (drink|coffee|beer|bite)", "(a|for) date", "see you (tonight|tomorrow|later|there|at)".
 * Enough to remind, not to judge: a false positive costs one reminder per conversation.
 */
export const MEETUP_PHRASES: readonly RegExp[] = [
  /\bmeet ?up\b/,
  /\bmeet (?:you|u|tonight|today|tomorrow|later|now|soon|there|irl|in person)\b/,
  /\b(?:wanna|want to|let s|lets|should we|can we|could we|shall we) meet\b/,
  /\bhook ?up\b/,
  /\bhang out\b/,
  /\bcome (?:over|to mine|round)\b/,
  /\b(?:my|your|ur) place\b/,
  /\b(?:host or travel|can you host|i can host)\b/,
  /\bgrab a (?:drink|coffee|beer|bite)\b/,
  /\b(?:a|for) date\b/,
  /\bsee you (?:tonight|tomorrow|later|there|at)\b/,
];

/** Whether a chat message talks about meeting up (MEETUP_PHRASES). */
export function mentionsMeetup(text: string): boolean {
  const t = normaliseText(text);
  return t !== '' && MEETUP_PHRASES.some((re) => re.test(t));
}

/** The spec's public-place advice, the body of every safety_reminder. */
export const PUBLIC_PLACE_ADVICE =
  'Meet in a busy public place first, tell a friend where you are going and when you will be back, get there on your own, and leave whenever you want to.';

export const SAFETY_REMINDERS = {
  cruise: {
    title: 'Meeting someone tonight?',
    message: `You're cruising: before you meet anyone, ${PUBLIC_PLACE_ADVICE.charAt(0).toLowerCase()}${PUBLIC_PLACE_ADVICE.slice(1)}`,
  },
  chat: {
    title: 'Planning to meet?',
    message: `It sounds like you're making plans. ${PUBLIC_PLACE_ADVICE}`,
  },
} as const;

export const LOCATION_WARNINGS = {
  exactWhileCruising: {
    title: 'Your exact area is visible',
    message:
      "While you cruise, men nearby can see your 500 m area pinned on their map. If you're at home, switch to approximate so they only see a distance.",
  },
  impossibleJump: {
    title: 'Unusual location change',
    message:
      "Your location changed faster than anyone can travel, so we didn't move you. If that wasn't you, change your password and check your signed-in devices.",
  },
} as const;

/** Actions of location alerts: the settings where location sharing is changed. */
export const OPEN_SETTINGS_ACTION: AlertAction = {
  id: 'open_settings',
  label: 'Open settings',
  type: 'open_settings',
  severity: 'low',
};
