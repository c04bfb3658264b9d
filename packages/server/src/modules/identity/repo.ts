import { type BetaSettings, DEFAULT_BETA_SETTINGS } from '@fmk/core';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { BannedEmailsTable, UsersTable } from '../../db/schema.ts';

/** SQL of the identity feature: identity mappings, banned emails, the audit log, beta settings. */

export const BETA_SETTINGS_KEY = 'beta';

/** Whether an anonymous id is taken, as a user's current id or as any mapping (old ones included). */
export async function anonymousIdTaken(db: Db, id: string): Promise<boolean> {
  const [user, mapping] = await Promise.all([
    db.selectFrom('users').select('id').where('anonymous_id', '=', id).executeTakeFirst(),
    db.selectFrom('identity_mappings').select('id').where('id', '=', id).executeTakeFirst(),
  ]);
  return Boolean(user || mapping);
}

export function findUserById(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserByGoogleSub(db: Db, sub: string) {
  return db.selectFrom('users').selectAll().where('google_sub', '=', sub).executeTakeFirst();
}

/** Links Google to the account; Google vouches for the address, so it counts as confirmed. */
export async function setGoogleSub(db: Db, userId: string, sub: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ google_sub: sub, updated_at: now, email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
    .where('id', '=', userId)
    .execute();
}

export function findActiveMapping(db: Db, userId: string) {
  return db
    .selectFrom('identity_mappings')
    .selectAll()
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .executeTakeFirst();
}

export function findMapping(db: Db, anonymousId: string) {
  return db.selectFrom('identity_mappings').selectAll().where('id', '=', anonymousId).executeTakeFirst();
}

export async function insertMapping(
  db: Db,
  m: { id: string; email: string; userId: string; source: string; previousEmails?: string[]; previousIds?: string[]; now: Date },
): Promise<void> {
  await db
    .insertInto('identity_mappings')
    .values({
      id: m.id,
      email: m.email,
      user_id: m.userId,
      registration_source: m.source,
      previous_emails: JSON.stringify(m.previousEmails ?? []),
      previous_anonymous_ids: JSON.stringify(m.previousIds ?? []),
      created_at: m.now,
      updated_at: m.now,
    })
    .execute();
}

export function findAdmin(db: Db, userId: string) {
  return db.selectFrom('admin_users').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export function findBan(db: Db, emailHash: string) {
  return db.selectFrom('banned_emails').selectAll().where('email_hash', '=', emailHash).executeTakeFirst();
}

/** An audit row, chained (platform/audit), in the caller's transaction. */
export { writeAudit } from '../../platform/audit/repo.ts';

function parseBeta(value: unknown): BetaSettings {
  return { ...DEFAULT_BETA_SETTINGS, ...(value && typeof value === 'object' ? (value as Partial<BetaSettings>) : {}) };
}

/** The beta settings (spec section 3 "Location and beta"), defaults when never saved. */
export async function readBetaSettings(db: Db): Promise<BetaSettings> {
  const row = await db.selectFrom('admin_settings').select('value').where('key', '=', BETA_SETTINGS_KEY).executeTakeFirst();
  return parseBeta(row?.value);
}

/**
 * The beta settings, row-locked for the rest of the transaction so that two sign-ups cannot both
 * take the last place. Creates the row with the defaults when missing.
 */
export async function lockBetaSettings(db: Db, now: Date): Promise<BetaSettings> {
  await db
    .insertInto('admin_settings')
    .values({ key: BETA_SETTINGS_KEY, value: JSON.stringify(DEFAULT_BETA_SETTINGS), updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('admin_settings')
    .select('value')
    .where('key', '=', BETA_SETTINGS_KEY)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return parseBeta(row.value);
}

export async function saveBetaSettings(db: Db, settings: BetaSettings, now: Date): Promise<void> {
  await db
    .insertInto('admin_settings')
    .values({ key: BETA_SETTINGS_KEY, value: JSON.stringify(settings), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(settings), updated_at: now }))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Users as identities: creation, locks, anonymous ids, emails, bans.

/** A new user's row as written (the service fills in the spec's defaults). */
export function insertUser(db: Db, values: Insertable<UsersTable>) {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A new user's settings row: every setting at its default. */
export async function insertDefaultSettings(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .insertInto('user_settings')
    .values({ user_id: userId, gender_preferences: '[]', relationship_status_preferences: '[]', updated_at: now })
    .execute();
}

/** The user's row, locked until the transaction ends (his identity changes go one at a time). */
export function lockUser(db: Db, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
}

export async function setAnonymousId(db: Db, userId: string, anonymousId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ anonymous_id: anonymousId, updated_at: now }).where('id', '=', userId).execute();
}

export async function setUserEmail(db: Db, userId: string, email: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ email, updated_at: now }).where('id', '=', userId).execute();
}

/** Every mapping an email has had as its current email, active or not. */
export function mappingsOfEmail(db: Db, email: string) {
  return db.selectFrom('identity_mappings').select(['id', 'user_id', 'is_active']).where('email', '=', email).execute();
}

export async function setMappingsActive(db: Db, ids: readonly string[], active: boolean, now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('identity_mappings')
    .set({ is_active: active, updated_at: now })
    .where('id', 'in', [...ids])
    .execute();
}

/** The mapping's current email, the earlier ones kept in its previous list. */
export async function setMappingEmail(db: Db, id: string, email: string, previous: readonly string[], now: Date): Promise<void> {
  await db
    .updateTable('identity_mappings')
    .set({ email, previous_emails: JSON.stringify(previous), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Records a ban of the email's hash, or replaces the one there. */
export async function saveBan(
  db: Db,
  emailHash: string,
  values: Omit<Insertable<BannedEmailsTable>, 'email_hash'>,
): Promise<void> {
  await db
    .insertInto('banned_emails')
    .values({ email_hash: emailHash, ...values })
    .onConflict((oc) => oc.column('email_hash').doUpdateSet(values))
    .execute();
}

/** Lifts the ban of an email's hash; returns it, or nothing when another request lifted it first. */
export function deleteBan(db: Db, emailHash: string) {
  return db.deleteFrom('banned_emails').where('email_hash', '=', emailHash).returningAll().executeTakeFirst();
}

/** A ban's users: inactive, and every live session revoked; returns the sessions it ended. */
export async function deactivateUsers(
  db: Db,
  userIds: readonly string[],
  now: Date,
): Promise<{ userId: string; sessionId: string }[]> {
  if (userIds.length === 0) return [];
  await db
    .updateTable('users')
    .set({ is_active: false, updated_at: now })
    .where('id', 'in', [...userIds])
    .execute();
  const ended = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', 'in', [...userIds])
    .where('revoked_at', 'is', null)
    .returning(['id', 'user_id'])
    .execute();
  return ended.map((r) => ({ userId: r.user_id, sessionId: r.id }));
}

/** A lifted ban's users, by the email or by the anonymous ids it held: active again. */
export async function reactivateUsers(db: Db, email: string, anonymousIds: readonly string[], now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_active: true, updated_at: now })
    .where((eb) =>
      eb.or([eb('email', '=', email), ...(anonymousIds.length ? [eb('anonymous_id', 'in', [...anonymousIds])] : [])]),
    )
    .execute();
}

/**
 * An erased account's traces in the records the law keeps: a ban stays (by its email hash) but
 * no longer holds the address or the account's anonymous ids; audit rows keep the action and
 * reason, not who it was about, nor which erased staff member acted.
 */
export async function pseudonymiseRecords(
  db: Db,
  who: { userId: string; anonymousIds: readonly string[]; emails: readonly string[] },
  placeholder: string,
): Promise<void> {
  const ids = [...who.anonymousIds];
  const emails = [...who.emails];
  if (emails.length) {
    await db.updateTable('banned_emails').set({ email: placeholder }).where('email', 'in', emails).execute();
    await db.updateTable('audit_log').set({ email: null }).where('email', 'in', emails).execute();
  }
  if (ids.length) {
    await db.updateTable('audit_log').set({ anonymous_id: null }).where('anonymous_id', 'in', ids).execute();
    const bans = await db.selectFrom('banned_emails').select(['email_hash', 'associated_anonymous_ids']).execute();
    for (const ban of bans) {
      const kept = ban.associated_anonymous_ids.filter((id) => !ids.includes(id));
      if (kept.length === ban.associated_anonymous_ids.length) continue;
      await db
        .updateTable('banned_emails')
        .set({ associated_anonymous_ids: JSON.stringify(kept) })
        .where('email_hash', '=', ban.email_hash)
        .execute();
    }
  }
  await db.updateTable('banned_emails').set({ banned_by: placeholder }).where('banned_by', '=', who.userId).execute();
  await db.updateTable('audit_log').set({ admin_id: placeholder }).where('admin_id', '=', who.userId).execute();
}
