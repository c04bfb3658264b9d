import type { Db } from '../../db/index.ts';
import type { AccountLinksTable } from '../../db/schema.ts';
import { sessionCache } from '../../platform/auth.ts';

/** SQL of the account flows: one-time links, the confirmed address, passwords, sessions, request counts. */

export type LinkPurpose = AccountLinksTable['purpose'];

export async function insertLink(
  db: Db,
  l: { tokenHash: string; userId: string; purpose: LinkPurpose; email: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('account_links')
    .values({
      token_hash: l.tokenHash,
      user_id: l.userId,
      purpose: l.purpose,
      email: l.email,
      created_at: l.now,
      expires_at: l.expiresAt,
    })
    .execute();
  // Links long past use are only kept to say "already used" or "expired": a week is plenty.
  await db
    .deleteFrom('account_links')
    .where('user_id', '=', l.userId)
    .where('expires_at', '<', new Date(l.now.getTime() - 7 * 24 * 3600_000))
    .execute();
}

/**
 * Marks a link used, if it is of one of these purposes, unused and unexpired; returns it. One
 * statement, so two tabs opening the same link cannot both use it.
 */
export function useLink(db: Db, tokenHash: string, purposes: readonly LinkPurpose[], now: Date) {
  return db
    .updateTable('account_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'purpose', 'email'])
    .executeTakeFirst();
}

/** A link by its token's hash, used or not (to say why it did not work). */
export function findLink(db: Db, tokenHash: string) {
  return db.selectFrom('account_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Spends every unused link of this purpose of the user's (a newer one was used, or the password changed). */
export async function spendLinks(db: Db, userId: string, purpose: LinkPurpose, now: Date): Promise<void> {
  await db
    .updateTable('account_links')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** The new address waiting for its link, or none. */
export async function setPendingEmail(db: Db, userId: string, email: string | null, now: Date): Promise<void> {
  await db.updateTable('users').set({ pending_email: email, updated_at: now }).where('id', '=', userId).execute();
}

/** The waiting address became the account's (identity's changeEmail moved it): confirmed, nothing waits. */
export async function finishEmailChange(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ pending_email: null, email_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}

/**
 * Revokes the user's live sessions, all of them or all but `keep`; returns their ids. This
 * process's session cache forgets them at once (other instances within its few seconds).
 */
export async function revokeSessions(db: Db, userId: string, now: Date, keep: string | null): Promise<string[]> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (keep) q = q.where('id', '!=', keep);
  const ids = (await q.returning('id').execute()).map((r) => r.id);
  for (const id of ids) sessionCache.forgetSession(id);
  return ids;
}

/** Confirms the user's address, if it is still `email`; false when the account's address changed since. */
export async function markVerified(db: Db, userId: string, email: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
    .where('id', '=', userId)
    .where('email', '=', email)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Requests counted under `key` since `since` (the auth_attempts table: one row a request). */
export async function countRequests(db: Db, key: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('auth_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('key', '=', key)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function recordRequest(db: Db, key: string, now: Date, forgetBefore: Date): Promise<void> {
  await db.insertInto('auth_attempts').values({ key, created_at: now }).execute();
  await db.deleteFrom('auth_attempts').where('key', '=', key).where('created_at', '<=', forgetBefore).execute();
}
