import { DEFAULT_APP_PREFERENCES } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { parseAppPreferences } from './preferences.ts';

describe('stored app preferences', () => {
  it('defaults to both / true / true / true / false', () => {
    expect(parseAppPreferences(null)).toEqual({
      appMode: 'both',
      cruisingEnabled: true,
      healthEnabled: true,
      activityTrackingEnabled: true,
      rightNowEnabled: false,
    });
    expect(parseAppPreferences('not json')).toEqual(DEFAULT_APP_PREFERENCES);
  });

  it('keeps good fields and defaults bad ones one by one', () => {
    expect(parseAppPreferences('{"appMode":"sideways","healthEnabled":false,"rightNowEnabled":"yes"}')).toEqual({
      ...DEFAULT_APP_PREFERENCES,
      healthEnabled: false,
    });
  });

  it('turns cruising off in marry mode', () => {
    expect(parseAppPreferences('{"appMode":"marry","cruisingEnabled":true}').cruisingEnabled).toBe(false);
  });
});
