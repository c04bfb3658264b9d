import { z } from 'zod';
import { emailSchema, passwordSchema } from './auth.ts';
import { DAY, HOUR, MINUTE } from './clock.ts';

/**
 * The account's own flows, by mail: confirming the email address, resetting and changing the
 * password. A link carries a one-time token; the server keeps only its hash, and a link works
 * once, until it expires.
 */

/** How long a confirmation link works. */
export const EMAIL_LINK_TTL_MS = DAY;
/** How long a password reset link works: short, since it opens the account to whoever has the mail. */
export const RESET_LINK_TTL_MS = 30 * MINUTE;

/** A fixed window rate limit: at most `max` in any `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}
/** 'Resend' on the banner: enough for a mail lost to a spam folder, not enough to flood an inbox. */
export const RESEND_VERIFICATION_LIMIT: RateLimit = { max: 3, windowMs: HOUR };
/**
 * 'Forgot password?': per address (whether or not it has an account, so the limit tells nothing)
 * and per network address (one person trying many addresses).
 */
export const FORGOT_PASSWORD_EMAIL_LIMIT: RateLimit = { max: 3, windowMs: 15 * MINUTE };
export const FORGOT_PASSWORD_IP_LIMIT: RateLimit = { max: 10, windowMs: 15 * MINUTE };
/** Changes of address: each mails a link to a new address, so a few an hour. */
export const EMAIL_CHANGE_LIMIT: RateLimit = { max: 3, windowMs: HOUR };
/** Wrong current passwords (changing the password or the email) before the account waits. */
export const PASSWORD_CHECK_LIMIT: RateLimit = { max: 5, windowMs: 15 * MINUTE };

/** What the account's screens and the server say, in one place. */
export const AccountMessages = {
  linkUnknown: "This link isn't valid. Open the whole link from the email, or ask for a new one.",
  linkExpired: 'This link has expired. Ask for a new one.',
  linkUsed: 'This link has already been used.',
  linkForOldAddress: 'This link is for an email address that is no longer on your account.',
  alreadyVerified: 'Your email address is already confirmed.',
  tooManyRequests: 'Too many requests. Please wait a while and try again.',
  /** The same words whether or not the address has an account. */
  resetRequested: 'If an account uses that address, we sent it a link to choose a new password. It works for 30 minutes.',
  wrongPassword: "That's not your current password.",
  tooManyPasswordChecks: 'Too many wrong passwords. Please wait a few minutes and try again.',
  noPasswordYet:
    "Your account signs in with Google and has no password yet. Use 'Forgot password?' on the sign-in screen to set one.",
  samePassword: 'Choose a password different from your current one.',
  sameEmail: "That's already your email address.",
  linkForOldChange: 'This link is for an earlier change of address. Use the newest link we sent.',
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

/** POST /auth/verify: which address is now confirmed, and whether it replaced the account's old one. */
export const emailConfirmedSchema = z.object({ email: z.string(), changed: z.boolean() });
export type EmailConfirmed = z.infer<typeof emailConfirmedSchema>;

/** POST /auth/password/forgot */
export const forgotPasswordBody = z.object({ email: emailSchema });
/** What 'Forgot password?' answers, whatever the address. */
export const accountNoticeSchema = z.object({ message: z.string() });

/** POST /auth/password/reset: the link's token and the new password. */
export const resetPasswordBody = linkTokenBody.extend({ password: passwordSchema });
/** Which account's password was reset (the page offers to sign in with it). */
export const passwordResetSchema = z.object({ email: z.string() });

/** POST /auth/password/change (signed in). */
export const changePasswordBody = z.object({
  currentPassword: z
    .string({ error: 'Enter your current password.' })
    .min(1, 'Enter your current password.')
    .max(200, 'Enter your current password.'),
  newPassword: passwordSchema,
});

/** POST /auth/email/change (signed in): the new address and the password. */
export const changeEmailBody = z.object({
  email: emailSchema,
  password: z.string({ error: 'Enter your password.' }).min(1, 'Enter your password.').max(200, 'Enter your password.'),
});
