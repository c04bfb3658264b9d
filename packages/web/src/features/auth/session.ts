import { AUTH_STORAGE_KEYS, type AuthResult, type Me, MINUTE } from '@fmk/core';

/** Where the token's expiry is kept beside the spec's auth_token and auth_user. */
export const EXPIRES_AT_KEY = 'auth_expires_at';
/**
 * A refresh is tried when the token expires within this window. With checks every 5 minutes and
 * the spec's 5-minute logout margin, a live session gets at least two refresh attempts.
 */
export const REFRESH_WINDOW_MS = 15 * MINUTE;

export interface StoredSession {
  token: string | null;
  user: Me | null;
  expiresAt: Date | null;
}

function parseDate(v: string | null): Date | null {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

function parseUser(v: string | null): Me | null {
  if (!v) return null;
  try {
    const u: unknown = JSON.parse(v);
    return typeof u === 'object' && u !== null && typeof (u as Me).uid === 'string' ? (u as Me) : null;
  } catch {
    return null;
  }
}

export function readSession(storage: Storage = localStorage): StoredSession {
  try {
    return {
      token: storage.getItem(AUTH_STORAGE_KEYS.token),
      user: parseUser(storage.getItem(AUTH_STORAGE_KEYS.user)),
      expiresAt: parseDate(storage.getItem(EXPIRES_AT_KEY)),
    };
  } catch {
    return { token: null, user: null, expiresAt: null };
  }
}

export function writeSession(result: AuthResult, storage: Storage = localStorage): void {
  storage.setItem(AUTH_STORAGE_KEYS.token, result.token);
  storage.setItem(AUTH_STORAGE_KEYS.user, JSON.stringify(result.user));
  storage.setItem(EXPIRES_AT_KEY, result.expiresAt);
}

export function writeUser(user: Me, storage: Storage = localStorage): void {
  storage.setItem(AUTH_STORAGE_KEYS.user, JSON.stringify(user));
}

export function writeExpiry(expiresAt: string, storage: Storage = localStorage): void {
  storage.setItem(EXPIRES_AT_KEY, expiresAt);
}

/** Signing out clears every stored auth item (spec section 2). */
export function clearSession(storage: Storage = localStorage): void {
  try {
    storage.removeItem(AUTH_STORAGE_KEYS.token);
    storage.removeItem(AUTH_STORAGE_KEYS.user);
    storage.removeItem(EXPIRES_AT_KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

export function shouldRefresh(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() - now.getTime() < REFRESH_WINDOW_MS;
}

/** Tries `fn` up to `attempts` times, `delayMs` apart; rethrows the last failure. */
export async function withRetries<T>(
  fn: () => Promise<T>,
  attempts: number,
  delayMs: number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (e) {
      last = e;
      if (i < attempts - 1) await sleep(delayMs);
    }
  }
  throw last;
}
