import { applySettingsPatch, type Settings, type SettingsPatch, type StoredSettings, toSettings } from '@fmk/core';

/** The settings as they will be once `patch` is saved (the optimistic answer); unchanged if it contradicts itself. */
export function applyPatch(s: Settings, patch: SettingsPatch): Settings {
  const { privacySettings: _alias, ...safety } = s.safety;
  const stored: StoredSettings = { privacy: s.privacy, notifications: s.notifications, safety };
  const next = applySettingsPatch(stored, patch);
  return 'settings' in next ? { ...toSettings(next.settings, null), updatedAt: s.updatedAt } : s;
}
