import { z } from 'zod';
import type { RateLimit } from './account.ts';
import { HOUR, MINUTE } from './clock.ts';

/**
 * Verifying a phone number: the number is given in E.164, a six-digit code is texted to it, and
 * typing the code back proves the person holds the phone. A verified number is what the verified
 * badge means (spec section 3's safety settings: requirePhoneVerification, blockUnverifiedUsers,
 * restrictUnverifiedContacts): an email address costs nothing to make, a phone number does.
 * The number itself is private: it never reaches another user.
 */

/** How long a texted code works. */
export const PHONE_CODE_TTL_MS = 10 * MINUTE;
/** Wrong codes before the code is spent and a new one must be asked for. */
export const PHONE_CODE_TRIES = 5;
/** The wait between two texts to the same account (the 'Resend' button counts down). */
export const PHONE_RESEND_WAIT_MS = MINUTE;
/** Texts cost money and can be used to pester a stranger's phone: few an hour, per number and per account. */
export const PHONE_SEND_NUMBER_LIMIT: RateLimit = { max: 3, windowMs: HOUR };
export const PHONE_SEND_USER_LIMIT: RateLimit = { max: 5, windowMs: HOUR };

export const PhoneMessages = {
  invalidNumber: 'Enter your number in international format: + then the country code and number, e.g. +14155550123.',
  invalidCode: 'Enter the 6-digit code from the text message.',
  wrongCode: (left: number) => `That code isn't right. ${left} ${left === 1 ? 'try' : 'tries'} left.` as const,
  codeSpent: 'Too many wrong codes. Ask for a new code.',
  codeExpired: 'This code has expired. Ask for a new code.',
  noCode: 'There is no code waiting. Ask for a new code.',
  noNumber: 'Add a phone number first.',
  alreadyVerified: 'This number is already verified on your account.',
  takenNumber: 'This number is verified on another account. Use another number.',
  resendWait: (seconds: number) => `Please wait ${seconds} s before asking for another code.` as const,
  tooManyTexts: 'Too many codes sent. Please wait an hour and try again.',
  undeliverable: "We couldn't text this number. Check it, or use a mobile number.",
  smsUnavailable: "We couldn't send the text right now. Please try again in a few minutes.",
  smsOff: 'Phone verification is not available on this server.',
} as const;

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A phone number in E.164 ('+', a country code that does not start with 0, at most 15 digits in
 * all) from what a person typed: spaces, dashes, dots and brackets are dropped. Null when it is
 * not one.
 */
export function normalizePhone(raw: string): string | null {
  const s = raw.replace(/[\s().-]/g, '');
  return E164.test(s) ? s : null;
}

export const phoneNumberSchema = z
  .string({ error: PhoneMessages.invalidNumber })
  .max(40, PhoneMessages.invalidNumber)
  .transform((s, ctx) => {
    const phone = normalizePhone(s);
    if (phone === null) ctx.addIssue({ code: 'custom', message: PhoneMessages.invalidNumber });
    return phone ?? z.NEVER;
  });

/** POST /me/phone */
export const setPhoneBody = z.object({ phone: phoneNumberSchema });

/** POST /me/phone/verify: six digits (spaces a paste may carry are dropped). */
export const verifyPhoneBody = z.object({
  code: z
    .string({ error: PhoneMessages.invalidCode })
    .max(20, PhoneMessages.invalidCode)
    .transform((s) => s.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, PhoneMessages.invalidCode)),
});

/** The account's own phone: only ever answered to its owner. */
export const phoneStatusSchema = z.object({
  /** E.164, or null: no number on the account. */
  phone: z.string().nullable(),
  verified: z.boolean(),
  /** A code texted and still usable: when it expires and when another may be asked for. */
  pending: z.object({ expiresAt: z.string(), resendAt: z.string() }).nullable(),
});
export type PhoneStatus = z.infer<typeof phoneStatusSchema>;
