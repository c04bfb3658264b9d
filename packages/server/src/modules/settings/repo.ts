import { DEFAULT_MODE_SETTINGS, type StoredSettings } from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { rowFromStored, type SettingsRow, storedFromRow } from '../../platform/settings/columns.ts';

/** A member's stored settings and when they last changed (null: never saved, the defaults). */
export async function readSettings(
  db: Db,
  userId: string,
  opts: { lock?: boolean } = {},
): Promise<{ stored: StoredSettings; updatedAt: Date | null } | undefined> {
  let q = db
    .selectFrom('users as u')
    .leftJoin('user_settings as s', 's.user_id', 'u.id')
    .select(['u.mode_settings', 's.updated_at', sql<SettingsRow | null>`to_jsonb(s)`.as('settings_row')])
    .where('u.id', '=', userId);
  // The user's row is the lock: his settings row may not exist yet.
  if (opts.lock) q = q.forUpdate('u');
  const row = await q.executeTakeFirst();
  if (!row) return undefined;
  return { stored: storedFromRow(row.settings_row ?? {}, row.mode_settings), updatedAt: row.updated_at ?? null };
}

/**
 * Writes every stored switch: the settings row (created when he has none), and app mode visibility
 * in his mode settings when it changed.
 */
export async function writeSettings(db: Db, userId: string, s: StoredSettings, changedMode: boolean, at: Date): Promise<void> {
  const columns = rowFromStored(s);
  await db
    .insertInto('user_settings')
    .values({ user_id: userId, gender_preferences: '[]', relationship_status_preferences: '[]', ...columns, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...columns, updated_at: at }))
    .execute();
  if (!changedMode) return;
  const privacySettings = sql`coalesce(mode_settings->'privacySettings', ${JSON.stringify(DEFAULT_MODE_SETTINGS.privacySettings)}::jsonb)`;
  await db
    .updateTable('users')
    .set({
      mode_settings: sql`coalesce(mode_settings, '{}'::jsonb) || jsonb_build_object('privacySettings', ${privacySettings} || jsonb_build_object('showModeInProfile', ${s.privacy.showCurrentMode}::boolean))`,
    })
    .where('id', '=', userId)
    .execute();
}
