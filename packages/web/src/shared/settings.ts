import { applySettingsPatch, type Settings, type SettingsPatch, type StoredSettings, toSettings } from '@fmk/core';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/call.ts';
import { settingsKeys } from './queryKeys.ts';
import { readPending, writeKnown } from './settingsLocal.ts';

/** The settings as they will be once `patch` is saved (the optimistic answer); unchanged if it contradicts itself. */
export function applyPatch(s: Settings, patch: SettingsPatch): Settings {
  const { privacySettings: _alias, ...safety } = s.safety;
  const stored: StoredSettings = { privacy: s.privacy, notifications: s.notifications, safety };
  const next = applySettingsPatch(stored, patch);
  return 'settings' in next ? { ...toSettings(next.settings, null), updatedAt: s.updatedAt } : s;
}

/**
 * GET /me/settings: his settings store. Shared because several features read it (the settings
 * screens, the safety score, the chat's photo filter) and none of them owns it. A change still
 * waiting on this device (settingsLocal.ts) is shown over it; the answer is remembered as the
 * settings this device knows (in-app toasts read it).
 */
export function useMySettingsQuery() {
  return useQuery({
    queryKey: settingsKeys.mine(),
    queryFn: async () => {
      const s = await call('GET /me/settings');
      writeKnown(s);
      const pending = readPending();
      return pending ? applyPatch(s, pending) : s;
    },
    staleTime: 60_000,
  });
}
