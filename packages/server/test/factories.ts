import { randomBytes } from 'node:crypto';
import type { AuthResult } from '@fmk/core';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import type { Db as TestDb } from '../src/db/index.ts';

let n = 0;
/** A unique, valid email for a test user. */
export function newEmail(prefix = 'user'): string {
  n += 1;
  return `${prefix}${n}-${randomBytes(3).toString('hex')}@example.com`;
}

export const PASSWORD = 'correct horse battery';

/** Signs up a new user through the API; returns the token, its header and the user. */
export async function signUp(
  app: FastifyInstance,
  opts: { email?: string; password?: string } = {},
): Promise<AuthResult & { headers: { authorization: string } }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { email: opts.email ?? newEmail(), password: opts.password ?? PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as AuthResult;
  return { ...body, headers: { authorization: `Bearer ${body.token}` } };
}

/** Makes the user staff with `role` (an admin_users row). */
export async function makeStaff(
  db: TestDb,
  userId: string,
  role: 'owner' | 'super_admin' | 'admin' | 'moderator',
  isActive = true,
): Promise<void> {
  await db
    .insertInto('admin_users')
    .values({ user_id: userId, role, is_active: isActive })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ role, is_active: isActive }))
    .execute();
}

/** Puts the user on a tier without lifetime premium (sign-ups from localhost are beta users). */
export async function setTier(db: TestDb, userId: string, tier: 'free' | 'premium' | 'platinum'): Promise<void> {
  await db.updateTable('users').set({ subscription_tier: tier, has_lifetime_premium: false }).where('id', '=', userId).execute();
}

/** A row in user_blocks (blocking endpoints come with the safety issue). */
export async function block(db: TestDb, blockerId: string, blockedId: string): Promise<void> {
  await db.insertInto('user_blocks').values({ blocker_id: blockerId, blocked_id: blockedId }).execute();
}

/**
 * Marks the user's onboarding finished, as if he had completed it: every route that lists,
 * opens or acts on other users refuses him until then (spec section 2).
 */
export async function finishOnboarding(db: TestDb, userId: string): Promise<void> {
  await db.updateTable('users').set({ onboarding_complete: true }).where('id', '=', userId).execute();
}

/** A signed-up user whose onboarding is finished: one who may use the app's user-to-user routes. */
export async function signUpMember(
  app: FastifyInstance,
  db: TestDb,
  opts: { email?: string; password?: string } = {},
): Promise<Awaited<ReturnType<typeof signUp>>> {
  const u = await signUp(app, opts);
  await finishOnboarding(db, u.user.uid);
  return { ...u, user: { ...u.user, onboardingComplete: true } };
}

/**
 * A staff member signed in to the admin area: a member account made staff with `role`, then the
 * staff sign-in with its second factor (the TOTP code computed here as an authenticator would).
 */
export async function signUpStaff(
  app: FastifyInstance,
  db: TestDb,
  role: 'owner' | 'super_admin' | 'admin' | 'moderator',
  at: Date,
  opts: { email?: string } = {},
): Promise<Awaited<ReturnType<typeof signUp>> & { staffHeaders: { authorization: string }; member: { authorization: string } }> {
  const u = await signUp(app, opts);
  await makeStaff(db, u.user.uid, role);
  const staffHeaders = await staffSignIn(app, u.user.email, at);
  return { ...u, staffHeaders, member: u.headers, headers: staffHeaders };
}

/** The staff sign-in of an existing staff account; returns its staff session's header. */
export async function staffSignIn(
  app: FastifyInstance,
  email: string,
  at: Date,
  password = PASSWORD,
): Promise<{ authorization: string }> {
  const login = await app.inject({ method: 'POST', url: '/api/v1/admin/login', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`admin login failed: ${login.statusCode} ${login.body}`);
  const { challenge, enroll } = login.json() as { challenge: string; enroll: { secret: string } | null };
  if (!enroll) throw new Error('staffSignIn: second factor already set up; use its secret');
  const code = await generate({ secret: enroll.secret, epoch: Math.floor(at.getTime() / 1000) });
  const res = await app.inject({ method: 'POST', url: '/api/v1/admin/login/verify', payload: { challenge, code } });
  if (res.statusCode !== 200) throw new Error(`admin verify failed: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${(res.json() as { token: string }).token}` };
}
