import type { Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { UserSettingsTable } from '../../db/schema.ts';

/**
 * Saves some of a user's settings (consent, precision, ...): his settings row is created with
 * every other setting at its default when he has none yet, else only `changes` are written.
 */
export async function saveSettings(
  db: Db,
  userId: string,
  changes: Omit<Updateable<UserSettingsTable>, 'user_id' | 'updated_at'>,
  at: Date,
): Promise<void> {
  await db
    .insertInto('user_settings')
    .values({ user_id: userId, gender_preferences: '[]', relationship_status_preferences: '[]', ...changes, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...changes, updated_at: at }))
    .execute();
}
