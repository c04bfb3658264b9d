import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_PREFERENCES, parseAppPreferences, visibleTabs } from './preferences.ts';

describe('app preferences', () => {
  it('defaults to both / true / true / true / false', () => {
    expect(parseAppPreferences(null)).toEqual({
      appMode: 'both',
      cruisingEnabled: true,
      healthEnabled: true,
      activityTrackingEnabled: true,
      rightNowEnabled: false,
    });
    expect(parseAppPreferences('not json')).toEqual(DEFAULT_APP_PREFERENCES);
    expect(parseAppPreferences('{"appMode":"sideways","healthEnabled":"no"}')).toEqual(DEFAULT_APP_PREFERENCES);
  });

  it('turns cruising off in marry mode', () => {
    expect(parseAppPreferences('{"appMode":"marry","cruisingEnabled":true}').cruisingEnabled).toBe(false);
  });
});

describe('visibleTabs (spec 2 bottom navigation)', () => {
  it('shows all six tabs by default', () => {
    expect(visibleTabs('both', DEFAULT_APP_PREFERENCES)).toEqual([
      'grid',
      'messages',
      'cruise',
      'health',
      'activity',
      'settings',
    ]);
  });

  it('hides cruise in marry mode or when cruising is disabled', () => {
    expect(visibleTabs('marry', DEFAULT_APP_PREFERENCES)).not.toContain('cruise');
    expect(visibleTabs('fuck', { ...DEFAULT_APP_PREFERENCES, cruisingEnabled: false })).not.toContain('cruise');
    expect(visibleTabs('fuck', DEFAULT_APP_PREFERENCES)).toContain('cruise');
  });

  it('hides health and activity when they are disabled', () => {
    const tabs = visibleTabs('both', { ...DEFAULT_APP_PREFERENCES, healthEnabled: false, activityTrackingEnabled: false });
    expect(tabs).toEqual(['grid', 'messages', 'cruise', 'settings']);
  });
});
