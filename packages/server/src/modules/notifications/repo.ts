import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { SettingsRow } from '../../platform/settings/columns.ts';

/**
 * What decides whether and how a user hears of an event: there, online (an open tab sees it
 * live), his confirmed email, and his settings row (channels and kinds, settings/columns.ts).
 */
export function findPushTarget(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select([
      'users.is_online',
      'users.is_active',
      'users.email',
      'users.email_verified_at',
      sql<SettingsRow | null>`to_jsonb(user_settings)`.as('settings_row'),
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}
