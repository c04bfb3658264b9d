/** Anonymous identities (spec sections 3, 4, 5). */
export const ANON_PREFIX = 'anon_';
export const ANON_ID_PATTERN = /^anon_[a-z0-9]{12}$/;
export const ANON_ID_ATTEMPTS = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** True when the value is 'anon_' followed by exactly 12 lowercase letters or digits. */
export function isAnonymousId(value: unknown): value is string {
  return typeof value === 'string' && ANON_ID_PATTERN.test(value);
}

/**
 * A new anonymous id. `randomBytes` must be cryptographically random (server passes crypto);
 * modulo bias is avoided by rejection sampling.
 */
export function generateAnonymousId(randomBytes: (n: number) => Uint8Array): string {
  let out = '';
  while (out.length < 12) {
    for (const b of randomBytes(16)) {
      if (b < 252 && out.length < 12) out += ALPHABET[b % 36];
    }
  }
  return ANON_PREFIX + out;
}

/** 'User' plus the last 4 characters in capitals, or 'Unknown User' for anything that is not an anonymous id. */
export function anonymousLabel(value: unknown): string {
  return isAnonymousId(value) ? `User ${value.slice(-4).toUpperCase()}` : 'Unknown User';
}

/** Emails are compared and stored lowercased (spec section 5). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
