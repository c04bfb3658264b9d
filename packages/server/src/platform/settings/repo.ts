import { DEFAULT_SETTINGS } from '@fmk/core';
import type { Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { UserSettingsTable } from '../../db/schema.ts';
import type { Viewer } from '../present.ts';

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

/**
 * The content filter of each of `ids` as a viewer (platform/present.ts), for answers and events
 * that present another man to someone other than the caller: a match or a super to its target, a
 * call to its callee. No settings row yet: the defaults.
 */
export async function viewersOf(db: Db, ids: readonly string[]): Promise<Map<string, Viewer>> {
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('user_settings')
          .select(['user_id', 'content_filtering_enabled', 'strict_mode', 'hide_explicit_content', 'blur_sensitive_images'])
          .where('user_id', 'in', ids)
          .execute();
  const byId = new Map(rows.map((r) => [r.user_id, r]));
  const d = DEFAULT_SETTINGS.safety.contentFiltering;
  return new Map(
    ids.map((id) => {
      const r = byId.get(id);
      const contentFiltering = {
        enabled: r?.content_filtering_enabled ?? d.enabled,
        strictMode: r?.strict_mode ?? d.strictMode,
        hideExplicitContent: r?.hide_explicit_content ?? d.hideExplicitContent,
        blurSensitiveImages: r?.blur_sensitive_images ?? d.blurSensitiveImages,
      };
      return [id, { userSettings: { safety: { contentFiltering } } }];
    }),
  );
}

/** One user's content filter as a viewer (viewersOf). */
export async function viewerOf(db: Db, id: string): Promise<Viewer> {
  return (await viewersOf(db, [id])).get(id)!;
}
