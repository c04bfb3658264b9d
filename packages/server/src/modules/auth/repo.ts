import type { Db } from '../../db/index.ts';
import type { Failures } from './throttle.ts';

/** SQL of sign-in: sessions, failed attempts, OAuth flows and one-time redirect results. */

export async function touchSession(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** Attempts per key since `since` (how many, the oldest and the latest), for each key given. */
export async function countFailures(db: Db, keys: string[], since: Date): Promise<Map<string, Failures>> {
  const rows = await db
    .selectFrom('auth_attempts')
    .select([
      'key',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.min('created_at').as('first'),
      (eb) => eb.fn.max('created_at').as('last'),
    ])
    .where('key', 'in', keys)
    .where('created_at', '>', since)
    .groupBy('key')
    .execute();
  return new Map(rows.map((r) => [r.key, { n: Number(r.n), first: new Date(r.first), last: new Date(r.last) }]));
}

/** Whether the user has ever had a session from this address (a source the owner uses). */
export async function hasSignedInFrom(db: Db, userId: string, ip: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('ip_address', '=', ip)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function recordFailures(db: Db, keys: string[], now: Date, forgetBefore: Date): Promise<void> {
  await db
    .insertInto('auth_attempts')
    .values(keys.map((key) => ({ key, created_at: now })))
    .execute();
  // Old attempts no longer count; drop them for these keys so the table stays small.
  await db.deleteFrom('auth_attempts').where('key', 'in', keys).where('created_at', '<=', forgetBefore).execute();
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('auth_attempts').where('key', '=', key).execute();
}

export async function insertOauthFlow(
  db: Db,
  f: { state: string; codeVerifier: string; nonce: string; now: Date },
): Promise<void> {
  await db
    .insertInto('oauth_flows')
    .values({ state: f.state, code_verifier: f.codeVerifier, nonce: f.nonce, created_at: f.now })
    .execute();
}

/** Takes a flow by its state: a state is good for one callback only. */
export function takeOauthFlow(db: Db, state: string) {
  return db.deleteFrom('oauth_flows').where('state', '=', state).returningAll().executeTakeFirst();
}

export async function deleteOauthFlowsBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('oauth_flows').where('created_at', '<', before).execute();
}

export async function insertRedirectResult(db: Db, r: { codeHash: string; userId: string; now: Date }): Promise<void> {
  await db.insertInto('auth_redirect_results').values({ code_hash: r.codeHash, user_id: r.userId, created_at: r.now }).execute();
}

/** Marks a redirect result used, if it is unused and created after `since`; returns its user. */
export async function redeemRedirectResult(db: Db, codeHash: string, now: Date, since: Date): Promise<string | null> {
  const row = await db
    .updateTable('auth_redirect_results')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where('created_at', '>', since)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** The user's live sessions (not revoked, not expired), the most recently used first. */
export function liveSessions(db: Db, userId: string, now: Date) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_agent', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_used_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}
