import type { Db } from '../../db/index.ts';

/**
 * The one read a signed-in request makes before any feature runs (platform/auth.ts): the token's
 * session, whether revoked or expired, and whether its user is still active. Sessions are written
 * by the auth feature (modules/auth/repo.ts); the platform only reads them here.
 */
export function findSessionForToken(db: Db, sessionId: string, userId: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.revoked_at', 'sessions.expires_at', 'users.is_active'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .executeTakeFirst();
}
