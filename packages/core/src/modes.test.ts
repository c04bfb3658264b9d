import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AppPreferences,
  autoModeAt,
  brandLabel,
  DEFAULT_APP_PREFERENCES,
  DEFAULT_MODE_SETTINGS,
  isWithinWindow,
  minutesOfDay,
  modeLabel,
  modeSettingsSchema,
  modeSwitchToast,
  NAV_TABS,
  selectionTypesFor,
  updateAppPreferences,
  visibleTabs,
} from './modes.ts';
import { APP_MODES } from './profile.ts';

const DAY_MINUTES = 1440;
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const minute = fc.integer({ min: 0, max: DAY_MINUTES - 1 });
const time = minute.map(hhmm);
const appPreferences: fc.Arbitrary<AppPreferences> = fc.record({
  appMode: fc.constantFrom(...APP_MODES),
  cruisingEnabled: fc.boolean(),
  healthEnabled: fc.boolean(),
  activityTrackingEnabled: fc.boolean(),
  rightNowEnabled: fc.boolean(),
});

describe('brandLabel', () => {
  it('is FMK for both, F#K for fuck-only, #MK for marry-only (spec section 1)', () => {
    expect(brandLabel('both')).toBe('FMK');
    expect(brandLabel('fuck')).toBe('F#K');
    expect(brandLabel('marry')).toBe('#MK');
  });

  it('falls back to FMK before the mode is known', () => {
    expect(brandLabel(null)).toBe('FMK');
    expect(brandLabel(undefined)).toBe('FMK');
  });
});

describe('selectionTypesFor', () => {
  it('offers fuck and marry in both, otherwise only the chosen one', () => {
    expect(selectionTypesFor('both')).toEqual(['fuck', 'marry']);
    expect(selectionTypesFor('fuck')).toEqual(['fuck']);
    expect(selectionTypesFor('marry')).toEqual(['marry']);
  });
});

describe('updateAppPreferences', () => {
  it('has the spec defaults', () => {
    expect(DEFAULT_APP_PREFERENCES).toEqual({
      appMode: 'both',
      cruisingEnabled: true,
      healthEnabled: true,
      activityTrackingEnabled: true,
      rightNowEnabled: false,
    });
  });

  it('turns cruising off when marry is chosen', () => {
    expect(updateAppPreferences(DEFAULT_APP_PREFERENCES, { appMode: 'marry' })).toEqual({
      ...DEFAULT_APP_PREFERENCES,
      appMode: 'marry',
      cruisingEnabled: false,
    });
  });

  it('keeps cruising off in marry-only even when asked to turn it on', () => {
    fc.assert(
      fc.property(appPreferences, fc.boolean(), (prefs, cruising) => {
        const next = updateAppPreferences({ ...prefs, appMode: 'marry' }, { cruisingEnabled: cruising });
        expect(next.cruisingEnabled).toBe(false);
        expect(updateAppPreferences(prefs, { appMode: 'marry', cruisingEnabled: true }).cruisingEnabled).toBe(false);
      }),
    );
  });

  it('otherwise applies exactly the change and leaves the input alone', () => {
    fc.assert(
      fc.property(
        appPreferences,
        appPreferences,
        fc.subarray(['appMode', 'cruisingEnabled', 'healthEnabled'] as const),
        (prefs, other, keys) => {
          const change: Partial<AppPreferences> = Object.fromEntries(keys.map((k) => [k, other[k]]));
          const before = { ...prefs };
          const next = updateAppPreferences(prefs, change);
          expect(prefs).toEqual(before);
          const expected = { ...prefs, ...change };
          if (expected.appMode !== 'marry') expect(next).toEqual(expected);
          else expect(next).toEqual({ ...expected, cruisingEnabled: false });
        },
      ),
    );
  });
});

describe('visibleTabs', () => {
  it('shows every tab by default', () => {
    expect(visibleTabs(DEFAULT_APP_PREFERENCES)).toEqual([...NAV_TABS]);
  });

  it('hides cruise in marry-only or with cruising off, health and activity by their switches', () => {
    expect(visibleTabs({ ...DEFAULT_APP_PREFERENCES, appMode: 'marry', cruisingEnabled: true })).not.toContain('cruise');
    expect(visibleTabs({ ...DEFAULT_APP_PREFERENCES, cruisingEnabled: false })).not.toContain('cruise');
    expect(visibleTabs({ ...DEFAULT_APP_PREFERENCES, appMode: 'fuck' })).toContain('cruise');
    expect(visibleTabs({ ...DEFAULT_APP_PREFERENCES, healthEnabled: false })).toEqual([
      'grid',
      'messages',
      'cruise',
      'activity',
      'settings',
    ]);
    expect(visibleTabs({ ...DEFAULT_APP_PREFERENCES, activityTrackingEnabled: false })).not.toContain('activity');
  });

  it('always keeps grid, messages and settings, in navigation order', () => {
    fc.assert(
      fc.property(appPreferences, (prefs) => {
        const tabs = visibleTabs(prefs);
        for (const t of ['grid', 'messages', 'settings'] as const) expect(tabs).toContain(t);
        expect(tabs).toEqual(NAV_TABS.filter((t) => tabs.includes(t)));
        expect(tabs.includes('cruise')).toBe(prefs.appMode !== 'marry' && prefs.cruisingEnabled);
      }),
    );
  });
});

describe('modeLabel and the switch toast', () => {
  it('labels dating and now, anything else Unknown', () => {
    expect(modeLabel('dating')).toBe('Dating');
    expect(modeLabel('now')).toBe('Hookup');
    for (const v of ['hookup', 'Dating', '', null, undefined, 1, 'hidden']) expect(modeLabel(v)).toBe('Unknown');
  });

  it("uses the spec's toast titles", () => {
    expect(modeSwitchToast('dating').title).toBe('Switched to Dating Mode');
    expect(modeSwitchToast('now').title).toBe('Switched to Hookup Mode');
    expect(modeSwitchToast('dating').message).not.toBe('');
  });
});

describe('minutesOfDay', () => {
  it('reads HH:MM', () => {
    expect(minutesOfDay('00:00')).toBe(0);
    expect(minutesOfDay('09:00')).toBe(540);
    expect(minutesOfDay('23:59')).toBe(1439);
    fc.assert(
      fc.property(minute, (m) => {
        expect(minutesOfDay(hhmm(m))).toBe(m);
      }),
    );
  });
});

describe('isWithinWindow', () => {
  it('includes the start and excludes the end of a daytime window', () => {
    expect(isWithinWindow(minutesOfDay('09:00'), '09:00', '21:00')).toBe(true);
    expect(isWithinWindow(minutesOfDay('20:59'), '09:00', '21:00')).toBe(true);
    expect(isWithinWindow(minutesOfDay('21:00'), '09:00', '21:00')).toBe(false);
    expect(isWithinWindow(minutesOfDay('08:59'), '09:00', '21:00')).toBe(false);
  });

  it('handles windows that cross midnight', () => {
    const inside = ['22:00', '23:59', '00:00', '01:59'];
    const outside = ['02:00', '12:00', '21:59'];
    for (const t of inside) expect(isWithinWindow(minutesOfDay(t), '22:00', '02:00'), t).toBe(true);
    for (const t of outside) expect(isWithinWindow(minutesOfDay(t), '22:00', '02:00'), t).toBe(false);
  });

  it('treats equal start and end as the whole day', () => {
    fc.assert(
      fc.property(time, fc.integer({ min: -10_000, max: 10_000 }), (t, m) => {
        expect(isWithinWindow(m, t, t)).toBe(true);
      }),
    );
  });

  it('is the exact complement of the reversed window (for any distinct start and end)', () => {
    fc.assert(
      fc.property(minute, time, time, (m, s, e) => {
        fc.pre(s !== e);
        expect(isWithinWindow(m, s, e)).toBe(!isWithinWindow(m, e, s));
      }),
    );
  });

  it('holds as many minutes as the window is long, midnight or not', () => {
    fc.assert(
      fc.property(time, time, (s, e) => {
        let count = 0;
        for (let m = 0; m < DAY_MINUTES; m++) if (isWithinWindow(m, s, e)) count++;
        const length = (minutesOfDay(e) - minutesOfDay(s) + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES;
        expect(count).toBe(length);
      }),
      { numRuns: 60 },
    );
  });

  it('repeats every day, also for minutes outside 0..1439', () => {
    fc.assert(
      fc.property(minute, fc.integer({ min: -5, max: 5 }), time, time, (m, days, s, e) => {
        expect(isWithinWindow(m + days * DAY_MINUTES, s, e)).toBe(isWithinWindow(m, s, e));
      }),
    );
  });
});

describe('autoModeAt', () => {
  const window = DEFAULT_MODE_SETTINGS.timeBasedSwitching;

  it('is dating inside the default 09:00-21:00 window and hookup outside', () => {
    expect(window).toEqual({ datingStart: '09:00', datingEnd: '21:00' });
    expect(autoModeAt(minutesOfDay('09:00'), window)).toBe('dating');
    expect(autoModeAt(minutesOfDay('15:30'), window)).toBe('dating');
    expect(autoModeAt(minutesOfDay('21:00'), window)).toBe('now');
    expect(autoModeAt(minutesOfDay('03:00'), window)).toBe('now');
  });

  it('follows the window for every minute, including one that crosses midnight', () => {
    fc.assert(
      fc.property(minute, time, time, (m, datingStart, datingEnd) => {
        const mode = autoModeAt(m, { datingStart, datingEnd });
        expect(mode).toBe(isWithinWindow(m, datingStart, datingEnd) ? 'dating' : 'now');
      }),
    );
    expect(autoModeAt(minutesOfDay('23:00'), { datingStart: '20:00', datingEnd: '02:00' })).toBe('dating');
    expect(autoModeAt(minutesOfDay('10:00'), { datingStart: '20:00', datingEnd: '02:00' })).toBe('now');
  });
});

describe('DEFAULT_MODE_SETTINGS', () => {
  it('has the spec defaults (dating ages 22-35, safer options, health tracking on) and is valid', () => {
    expect(DEFAULT_MODE_SETTINGS.modePreferences.dating).toEqual({
      ageRange: [22, 35],
      saferOptions: true,
      healthTracking: true,
    });
    expect(DEFAULT_MODE_SETTINGS.autoSwitchByTime).toBe(false);
    expect(modeSettingsSchema.parse(DEFAULT_MODE_SETTINGS)).toEqual(DEFAULT_MODE_SETTINGS);
  });

  it('refuses times that are not HH:MM', () => {
    for (const t of ['9:00', '24:00', '12:60', 'noon']) {
      const bad = { ...DEFAULT_MODE_SETTINGS, timeBasedSwitching: { datingStart: t, datingEnd: '21:00' } };
      expect(modeSettingsSchema.safeParse(bad).success, t).toBe(false);
    }
  });
});
