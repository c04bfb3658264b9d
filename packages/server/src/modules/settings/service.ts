import {
  type Actor,
  applySettingsPatch,
  type Clock,
  type PrivacySettings,
  placedByArea,
  privacyControlsTurnedOn,
  type Settings,
  type SettingsPatch,
  toSettings,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import type { Bus } from '../../platform/bus.ts';
import { badRequest, unauthorized } from '../../platform/errors.ts';
import { placeLocation } from '../../platform/geo/repo.ts';
import { announceLocationChange } from '../../platform/grid-cells.ts';
import { readSettings, writeSettings } from './repo.ts';

/** A user's settings as GET /me/settings shows them (the data export); null for an unknown user. */
export async function settingsOf(db: Db, userId: string): Promise<Settings | null> {
  const found = await readSettings(db, userId);
  return found ? toSettings(found.stored, found.updatedAt) : null;
}

/** GET and PATCH /me/settings: the settings store (core settings.ts, docs/settings.md). */
export class SettingsService {
  constructor(private readonly deps: { db: Db; clock: Clock; bus?: Bus }) {}

  async get(actor: Actor): Promise<Settings> {
    const found = await readSettings(this.deps.db, actor.id);
    if (!found) throw unauthorized();
    return toSettings(found.stored, found.updatedAt);
  }

  /**
   * Applies a partial change under the user's row lock. A privacy control moved away from its
   * open default needs the tier's `privacy.control` (incognito: `incognito.use`); a refusal or a
   * contradiction changes nothing.
   */
  async update(actor: Actor, patch: SettingsPatch): Promise<Settings> {
    const now = this.deps.clock.now();
    const saved = await this.deps.db.transaction().execute(async (trx) => {
      const found = await readSettings(trx, actor.id, { lock: true });
      if (!found) throw unauthorized();
      const next = applySettingsPatch(found.stored, patch);
      if ('error' in next) throw badRequest(next.error);
      const before: PrivacySettings = found.stored.privacy;
      for (const k of privacyControlsTurnedOn(before, next.settings.privacy)) {
        requireAccess(actor, k === 'incognito' ? 'incognito.use' : 'privacy.control');
      }
      await writeSettings(trx, actor.id, next.settings, before.showCurrentMode !== next.settings.privacy.showCurrentMode, now);
      // Lists place him by his cell or his 5 km area (locationSafety): moved with the setting, at once.
      const byArea = placedByArea(next.settings.safety.locationSafety);
      const moved =
        byArea !== placedByArea(found.stored.safety.locationSafety) ? await placeLocation(trx, actor.id, byArea) : undefined;
      return { settings: toSettings(next.settings, now), moved };
    });
    await announceLocationChange(this.deps.bus, [saved.moved]);
    // After the commit: his open tabs (the live channel's in-app switches, other screens) read them again.
    await this.deps.bus?.publish([actor.id], { type: 'refetch', of: 'settings' });
    return saved.settings;
  }
}
