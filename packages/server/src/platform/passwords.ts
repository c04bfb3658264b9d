import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum (m=19 MiB, t=2, p=1): ~110 ms a hash on the machines we run on.
// `Algorithm` is a const enum, which isolatedModules cannot read: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;
const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** A password's stored form (argon2id, salted). */
export const hashPassword = (password: string): Promise<string> => hash(password, HASH_OPTIONS);

/** Verified against when there is no stored hash, so a missing account costs the same time. */
let dummyHash: Promise<string> | null = null;

/**
 * Whether `password` matches the stored hash. With no hash (no such account, or one that only
 * signs in with Google) a throwaway hash is verified instead and the answer is false: both cases
 * take as long as a wrong password.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64url'));
  const ok = await verify(stored ?? (await dummyHash), password).catch(() => false);
  return Boolean(stored) && ok;
}
