import type { Db } from '../../../db/index.ts';

// Staff records, their second factor, staff sessions and invites.

export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'google_sub', 'is_active'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** A staff member as the team screens show him; his second factor's secrets are read only to sign him in. */
const STAFF_ROW = [
  'a.user_id',
  'u.email',
  'a.role',
  'a.permissions',
  'a.is_active',
  'a.totp_enabled_at',
  'a.last_login',
  'a.invited_by',
] as const;

export function findStaff(db: Db, userId: string) {
  return db
    .selectFrom('admin_users as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select([...STAFF_ROW, 'a.totp_secret', 'a.totp_last_step', 'a.recovery_codes'])
    .where('a.user_id', '=', userId)
    .executeTakeFirst();
}

/** The record locked for the rest of the transaction (a code is spent once). */
export function lockStaff(db: Db, userId: string) {
  return db.selectFrom('admin_users').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirst();
}

export async function setTotpSecret(db: Db, userId: string, sealed: string): Promise<void> {
  await db
    .updateTable('admin_users')
    .set({ totp_secret: sealed })
    .where('user_id', '=', userId)
    .where('totp_enabled_at', 'is', null)
    .execute();
}

export async function markSignedIn(
  db: Db,
  userId: string,
  p: { now: Date; step: number | null; enable: boolean; recoveryCodes?: string[] },
): Promise<void> {
  await db
    .updateTable('admin_users')
    .set({
      last_login: p.now,
      ...(p.step !== null ? { totp_last_step: p.step } : {}),
      ...(p.enable ? { totp_enabled_at: p.now } : {}),
      ...(p.recoveryCodes ? { recovery_codes: JSON.stringify(p.recoveryCodes) } : {}),
    })
    .where('user_id', '=', userId)
    .execute();
}

export async function setRecoveryCodes(db: Db, userId: string, hashes: string[]): Promise<void> {
  await db
    .updateTable('admin_users')
    .set({ recovery_codes: JSON.stringify(hashes) })
    .where('user_id', '=', userId)
    .execute();
}

/** Ends every staff session of a user (his record was deactivated or revoked); returns their ids. */
export async function revokeStaffSessions(db: Db, userId: string, now: Date): Promise<string[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('kind', '=', 'staff')
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function upsertStaff(
  db: Db,
  s: { userId: string; role: 'owner' | 'super_admin' | 'admin' | 'moderator'; invitedBy: string | null },
): Promise<void> {
  await db
    .insertInto('admin_users')
    .values({ user_id: s.userId, role: s.role, is_active: true, invited_by: s.invitedBy })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ role: s.role, is_active: true, invited_by: s.invitedBy }))
    .execute();
}

export function listStaff(db: Db) {
  return db
    .selectFrom('admin_users as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(STAFF_ROW)
    .orderBy('a.created_at')
    .execute();
}

export async function updateStaff(
  db: Db,
  userId: string,
  set: { role?: 'owner' | 'super_admin' | 'admin' | 'moderator'; permissions?: string[] | null; isActive?: boolean },
): Promise<void> {
  await db
    .updateTable('admin_users')
    .set({
      ...(set.role ? { role: set.role } : {}),
      ...(set.permissions !== undefined
        ? { permissions: set.permissions === null ? null : JSON.stringify(set.permissions) }
        : {}),
      ...(set.isActive !== undefined ? { is_active: set.isActive } : {}),
    })
    .where('user_id', '=', userId)
    .execute();
}

/** How many people this staff member brought in and still counts: active staff and live invites. */
export async function countManaged(db: Db, userId: string, now: Date): Promise<number> {
  const [staff, invites] = await Promise.all([
    db
      .selectFrom('admin_users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('invited_by', '=', userId)
      .where('is_active', '=', true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('admin_invites')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('invited_by', '=', userId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow(),
  ]);
  return Number(staff.n) + Number(invites.n);
}

export async function insertInvite(
  db: Db,
  i: {
    id: string;
    email: string;
    role: 'owner' | 'super_admin' | 'admin' | 'moderator';
    tokenHash: string;
    invitedBy: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('admin_invites')
    .values({
      id: i.id,
      email: i.email,
      role: i.role,
      token_hash: i.tokenHash,
      invited_by: i.invitedBy,
      created_at: i.now,
      expires_at: i.expiresAt,
    })
    .execute();
}

export function listInvites(db: Db) {
  return db.selectFrom('admin_invites').selectAll().orderBy('created_at', 'desc').limit(200).execute();
}

export function findInvite(db: Db, id: string) {
  return db.selectFrom('admin_invites').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findInviteByToken(db: Db, tokenHash: string, forUpdate = false) {
  const q = db.selectFrom('admin_invites').selectAll().where('token_hash', '=', tokenHash);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
}

export async function closeInvite(db: Db, id: string, how: 'accepted' | 'revoked', now: Date): Promise<void> {
  await db
    .updateTable('admin_invites')
    .set(how === 'accepted' ? { accepted_at: now } : { revoked_at: now })
    .where('id', '=', id)
    .execute();
}
