import { z } from 'zod';
import { DAY, HOUR } from './clock.ts';

/**
 * The account's own flows, by mail: confirming the email address. A link carries a one-time
 * token; the server keeps only its hash, and a link works once, until it expires.
 */

/** How long a confirmation link works. */
export const EMAIL_LINK_TTL_MS = DAY;

/** A fixed window rate limit: at most `max` in any `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}
/** 'Resend' on the banner: enough for a mail lost to a spam folder, not enough to flood an inbox. */
export const RESEND_VERIFICATION_LIMIT: RateLimit = { max: 3, windowMs: HOUR };

/** What the account's screens and the server say, in one place. */
export const AccountMessages = {
  linkUnknown: "This link isn't valid. Open the whole link from the email, or ask for a new one.",
  linkExpired: 'This link has expired. Ask for a new one.',
  linkUsed: 'This link has already been used.',
  linkForOldAddress: 'This link is for an email address that is no longer on your account.',
  alreadyVerified: 'Your email address is already confirmed.',
  tooManyRequests: 'Too many requests. Please wait a while and try again.',
} as const;

/** Why a link did not work: each has its own message and the page its own way on. */
export const LINK_ERRORS = ['link_unknown', 'link_expired', 'link_used'] as const;
export type LinkError = (typeof LINK_ERRORS)[number];

/** A link's token, as the page read it from the link. */
export const linkTokenBody = z.object({
  token: z
    .string({ error: AccountMessages.linkUnknown })
    .trim()
    .min(16, AccountMessages.linkUnknown)
    .max(128, AccountMessages.linkUnknown)
    .regex(/^[A-Za-z0-9_-]+$/, AccountMessages.linkUnknown),
});

/** POST /auth/verify: which address is now confirmed. */
export const emailConfirmedSchema = z.object({ email: z.string() });
export type EmailConfirmed = z.infer<typeof emailConfirmedSchema>;
