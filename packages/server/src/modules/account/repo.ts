import type { Db } from '../../db/index.ts';
import type { AccountLinksTable } from '../../db/schema.ts';

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

/** The account's phone number and whether it is verified. */
export function findPhone(db: Db, userId: string) {
  return db.selectFrom('users').select(['phone_number', 'phone_verified_at']).where('id', '=', userId).executeTakeFirst();
}

/** The code waiting for the user, usable or not. */
export function findPhoneCode(db: Db, userId: string) {
  return db.selectFrom('phone_codes').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Sets the account's number and the code just texted to it (replacing any earlier code). A new
 * number is unverified until its code comes back; the same number keeps what it had.
 */
export async function savePhoneCode(
  db: Db,
  c: { userId: string; phone: string; codeHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ phone_number: c.phone, phone_verified_at: null, updated_at: c.now })
    .where('id', '=', c.userId)
    .where((eb) => eb.or([eb('phone_number', 'is', null), eb('phone_number', '!=', c.phone)]))
    .execute();
  const row = { phone: c.phone, code_hash: c.codeHash, attempts: 0, created_at: c.now, expires_at: c.expiresAt };
  await db
    .insertInto('phone_codes')
    .values({ user_id: c.userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}

/**
 * Counts one try of the user's code, if it is unexpired and has tries left; returns it with the
 * tries so far. One statement, so two tabs typing at once cannot get more than the allowance.
 */
export function takePhoneTry(db: Db, userId: string, maxTries: number, now: Date) {
  return db
    .updateTable('phone_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .where('attempts', '<', maxTries)
    .where('expires_at', '>', now)
    .returning(['phone', 'code_hash', 'attempts'])
    .executeTakeFirst();
}

/** Another account that has verified this number, if any. */
export function verifiedPhoneOwner(db: Db, phone: string, notUserId: string) {
  return db
    .selectFrom('users')
    .select('id')
    .where('phone_number', '=', phone)
    .where('phone_verified_at', 'is not', null)
    .where('id', '!=', notUserId)
    .executeTakeFirst();
}

/** Marks the number verified, if it is still the account's; false when it changed since the code was sent. */
export async function markPhoneVerified(db: Db, userId: string, phone: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ phone_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('phone_number', '=', phone)
    .executeTakeFirst();
  await db.deleteFrom('phone_codes').where('user_id', '=', userId).execute();
  return Number(r.numUpdatedRows) > 0;
}

/** Removes the account's number, its verification and any waiting code. */
export async function removePhone(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ phone_number: null, phone_verified_at: null, updated_at: now })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('phone_codes').where('user_id', '=', userId).execute();
}
