import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applySettingsPatch,
  DEFAULT_SETTINGS,
  privacyControlsTurnedOn,
  SETTINGS_CONFLICT,
  type SettingsPatch,
  settingsPatchBody,
  settingsSchema,
  toSettings,
} from './settings.ts';

const bool = fc.boolean();

describe('settings', () => {
  it('the defaults make a valid GET /me/settings answer', () => {
    expect(settingsSchema.parse(toSettings(DEFAULT_SETTINGS, null))).toBeTruthy();
  });

  it('refuses unknown keys at every depth', () => {
    for (const body of [
      { nope: true },
      { privacy: { nope: true } },
      { notifications: { kinds: { messages: { fax: true } } } },
      { notifications: { kinds: { spam: { push: true } } } },
      { safety: { contentFiltering: { enabled: true, extra: 1 } } },
      { safety: { otherGroup: {} } },
      { privacy: { profileVisibility: 'friends' } },
    ]) {
      expect(settingsPatchBody.safeParse(body).success).toBe(false);
    }
    expect(settingsPatchBody.safeParse({ safety: { meetupSafety: { safeWordEnabled: true } } }).success).toBe(true);
  });

  it('privacySettings is a second name for four stored switches: what one sets the other reads', () => {
    fc.assert(
      fc.property(bool, bool, bool, bool, (hideFromSearch, hideLastSeen, hideReadReceipts, restrict) => {
        const r = applySettingsPatch(DEFAULT_SETTINGS, {
          safety: { privacySettings: { hideFromSearch, hideLastSeen, hideReadReceipts, restrictUnverifiedContacts: restrict } },
        });
        if (!('settings' in r)) throw new Error(r.error);
        const view = toSettings(r.settings, null);
        expect(view.safety.privacySettings).toEqual({
          hideFromSearch,
          hideLastSeen,
          hideReadReceipts,
          restrictUnverifiedContacts: restrict,
        });
        expect(view.privacy.profileVisibility).toBe(hideFromSearch ? 'matches' : 'public');
        expect(view.privacy.showLastActive).toBe(!hideLastSeen);
        expect(view.privacy.showReadReceipts).toBe(!hideReadReceipts);
        expect(view.safety.communicationSafety.blockUnverifiedUsers).toBe(restrict);
      }),
    );
  });

  it('an alias and its field named together must agree', () => {
    expect(
      applySettingsPatch(DEFAULT_SETTINGS, {
        privacy: { showLastActive: true },
        safety: { privacySettings: { hideLastSeen: true } },
      }),
    ).toEqual({
      error: SETTINGS_CONFLICT,
    });
    const ok = applySettingsPatch(DEFAULT_SETTINGS, {
      privacy: { showLastActive: false },
      safety: { privacySettings: { hideLastSeen: true } },
    });
    expect('settings' in ok && ok.settings.privacy.showLastActive).toBe(false);
  });

  it('a patch changes exactly what it names', () => {
    const patch: SettingsPatch = {
      notifications: { kinds: { likes: { push: false } } },
      safety: { meetupSafety: { safeWordEnabled: true } },
    };
    const r = applySettingsPatch(DEFAULT_SETTINGS, patch);
    if (!('settings' in r)) throw new Error(r.error);
    expect(r.settings.notifications.kinds.likes).toEqual({ ...DEFAULT_SETTINGS.notifications.kinds.likes, push: false });
    expect(r.settings.safety.meetupSafety.safeWordEnabled).toBe(true);
    expect({ ...r.settings, notifications: DEFAULT_SETTINGS.notifications, safety: DEFAULT_SETTINGS.safety }).toEqual(
      DEFAULT_SETTINGS,
    );
  });

  it('only a move away from the open default needs the privacy tier', () => {
    const on = { ...DEFAULT_SETTINGS.privacy, shareDistance: false, incognito: true };
    expect(privacyControlsTurnedOn(DEFAULT_SETTINGS.privacy, on).sort()).toEqual(['incognito', 'shareDistance']);
    expect(privacyControlsTurnedOn(on, DEFAULT_SETTINGS.privacy)).toEqual([]);
    expect(privacyControlsTurnedOn(on, on)).toEqual([]);
  });
});
