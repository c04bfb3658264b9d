import type { Db } from '../../db/index.ts';

/** What decides whether a user gets a push: there, online (an open tab sees it live), his switch. */
export function findPushTarget(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select(['users.is_online', 'users.is_active', 'user_settings.push_notifications_enabled'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}
