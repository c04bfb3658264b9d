import { HOUR, MINUTE } from '@fmk/core';

/**
 * Sign-in throttling, by growing delays rather than a lock, counted over a window:
 *
 * - `pair`: one email from one source address. The owner's own typos and a guesser at one
 *   address slow down only that pair.
 * - `source`: one address, whatever the email (one machine trying many accounts).
 * - `account`: one email from addresses that never signed into it (a guesser spread over many
 *   addresses). It is the only count a stranger can raise for someone else's email, and it is
 *   never applied to an address the owner has signed in from before.
 *
 * So failures at one address never delay the owner at another, whatever the password tried; a
 * spread-out attack delays only new addresses, and the owner at an address he has used before
 * still gets in. Past `free` failures, each further attempt waits `baseMs` × 2^(failures − free)
 * after the last failure, at most MAX_DELAY_MS. Refused attempts are not counted and never see
 * the password checked.
 */
export interface ThrottleRule {
  free: number;
  baseMs: number;
}

export const SIGN_IN_THROTTLE = {
  pair: { free: 5, baseMs: 30_000 },
  source: { free: 20, baseMs: 60_000 },
  account: { free: 10, baseMs: 60_000 },
} as const satisfies Record<string, ThrottleRule>;

/** Failures older than this no longer count. */
export const ATTEMPT_WINDOW_MS = HOUR;
export const MAX_DELAY_MS = 15 * MINUTE;

export interface Failures {
  n: number;
  /** The oldest and the latest failure counted. */
  first: Date;
  last: Date;
}

/** How long the next attempt must wait under `rule` (0: it may go now). */
export function waitMs(f: Failures | undefined, rule: ThrottleRule, now: Date): number {
  if (!f || f.n < rule.free) return 0;
  const delay = Math.min(rule.baseMs * 2 ** (f.n - rule.free), MAX_DELAY_MS);
  return Math.max(0, f.last.getTime() + delay - now.getTime());
}

/** The count keys of one sign-in attempt. */
export const throttleKeys = (email: string, ip: string) => ({
  pair: `pair:${ip}|${email}`,
  source: `ip:${ip}`,
  account: `email:${email}`,
});

/**
 * Sign-ups: at most `perSource` an hour from one address and `global` an hour in all (a ceiling
 * against a spread-out flood of fake accounts). Every sign-up asked counts, taken email or not.
 */
export const SIGN_UP_WINDOW_MS = HOUR;
export const signUpKeys = (ip: string) => ({ source: `signup-ip:${ip}`, global: 'signup:all' });

/** How long until a slot frees under a cap of `max` in `windowMs` (0: one is free now). */
export function capWaitMs(f: Failures | undefined, max: number, windowMs: number, now: Date): number {
  if (!f || f.n < max) return 0;
  return Math.max(1000, f.first.getTime() + windowMs - now.getTime());
}
