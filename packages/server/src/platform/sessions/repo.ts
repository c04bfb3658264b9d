import type { Db } from '../../db/index.ts';
import { sessionCache } from '../auth.ts';

// Sessions are opened by a member's sign-in (auth) and a staff sign-in (admin), and ended by
// signing out, signing out elsewhere, a new password or email (account) and erasure: one row
// shape, one write each, one cache to forget.

/** Where a sign-in came from, kept on its session for the sessions list. */
export interface ClientMeta {
  ip: string;
  userAgent: string | null;
}

/** The longest user agent kept: it is the client's own text, only ever shown back in a list. */
const USER_AGENT_MAX = 500;

/**
 * A new session row: a member's, or a staff sign-in's (kind staff), which only the admin area
 * accepts and which ends sooner.
 */
export async function insertSession(
  db: Db,
  s: { id: string; userId: string; kind?: 'staff'; now: Date; expiresAt: Date; meta: ClientMeta },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: s.id,
      user_id: s.userId,
      created_at: s.now,
      expires_at: s.expiresAt,
      last_used_at: s.now,
      user_agent: s.meta.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ip_address: s.meta.ip,
      ...(s.kind ? { kind: s.kind } : {}),
    })
    .execute();
}

/** Signs one session out (a no-op when it already was), and forgets it in this process's cache. */
export async function revokeSession(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  sessionCache.forgetSession(id);
}

/**
 * Revokes the user's live sessions: all but `keep` (every one when it is null), or only `only`;
 * a session of another user is never touched. Returns the ids revoked, and forgets them in this process's
 * session cache at once.
 */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  now: Date,
  which: { keep: string | null } | { only: string },
): Promise<string[]> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if ('only' in which) q = q.where('id', '=', which.only);
  else if (which.keep) q = q.where('id', '!=', which.keep);
  const ids = (await q.returning('id').execute()).map((r) => r.id);
  for (const id of ids) sessionCache.forgetSession(id);
  return ids;
}
