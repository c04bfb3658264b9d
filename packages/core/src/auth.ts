import { z } from 'zod';
import { MINUTE } from './clock.ts';

/** Client-side auth timing (spec sections 4, 9). */
export const TOKEN_CHECK_INTERVAL_MS = 5 * MINUTE;
export const TOKEN_EXPIRY_MARGIN_MS = 5 * MINUTE;
export const AUTH_INIT_TIMEOUT_MS = 3000;
export const REDIRECT_RESULT_ATTEMPTS = 3;
export const REDIRECT_RESULT_DELAY_MS = 1000;
export const AUTH_STORAGE_KEYS = { token: 'auth_token', user: 'auth_user' } as const;
export const MIN_PASSWORD_LENGTH = 8;

/** A missing token means unauthenticated; an expired one or one expiring within the margin logs out. */
export function tokenCheck(expiresAt: Date | null, now: Date): 'ok' | 'logout' | 'unauthenticated' {
  if (!expiresAt) return 'unauthenticated';
  return expiresAt.getTime() - now.getTime() <= TOKEN_EXPIRY_MARGIN_MS ? 'logout' : 'ok';
}

export const emailSchema = z
  .string({ error: 'Enter your email address.' })
  .trim()
  .min(1, 'Enter your email address.')
  .max(254, 'That email address is too long.')
  .email('Enter a valid email address.')
  .transform((e) => e.toLowerCase());

export const passwordSchema = z
  .string({ error: 'Enter a password.' })
  .min(MIN_PASSWORD_LENGTH, `Passwords must be at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(200, 'Passwords must be at most 200 characters.');

export const signUpBody = z.object({ email: emailSchema, password: passwordSchema });
export const signInBody = z.object({
  email: emailSchema,
  password: z.string({ error: 'Enter your password.' }).min(1, 'Enter your password.').max(200),
});
export const redirectResultBody = z.object({ code: z.string().min(16).max(128) });
