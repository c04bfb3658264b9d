import type { Db } from '../../db/index.ts';
import { sessionCache } from '../auth.ts';

// Ending sessions is shared by signing out elsewhere (auth), a new password or email (account)
// and erasure: one write, one cache to forget.

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
