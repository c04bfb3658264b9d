import { z } from 'zod';
import { type AppMode, type ProfileMode, preferencesSchema } from './profile.ts';

/** Branding (spec section 1): FMK for both, F#K for fuck-only, #MK for marry-only. */
export function brandLabel(appMode: AppMode | null | undefined): string {
  if (appMode === 'fuck') return 'F#K';
  if (appMode === 'marry') return '#MK';
  return 'FMK';
}
export const TAGLINE = 'Fuck. Marry. Kill. Your call.';

export type SelectionType = 'fuck' | 'marry';
/** Selection types offered (spec section 3): both gives fuck and marry; otherwise only the chosen one. */
export function selectionTypesFor(appMode: AppMode): SelectionType[] {
  return appMode === 'both' ? ['fuck', 'marry'] : [appMode];
}

/** App preferences (spec section 3), stored locally and synced to the user record. */
export const appPreferencesSchema = z.object({
  appMode: z.enum(['both', 'fuck', 'marry']),
  cruisingEnabled: z.boolean(),
  healthEnabled: z.boolean(),
  activityTrackingEnabled: z.boolean(),
  rightNowEnabled: z.boolean(),
});
export type AppPreferences = z.infer<typeof appPreferencesSchema>;
export const DEFAULT_APP_PREFERENCES: AppPreferences = {
  appMode: 'both',
  cruisingEnabled: true,
  healthEnabled: true,
  activityTrackingEnabled: true,
  rightNowEnabled: false,
};

/** Applies a change to the preferences; choosing marry turns cruising off (spec section 3). */
export function updateAppPreferences(prefs: AppPreferences, change: Partial<AppPreferences>): AppPreferences {
  const next = { ...prefs, ...change };
  if (next.appMode === 'marry') next.cruisingEnabled = false;
  return next;
}

export const NAV_TABS = ['grid', 'messages', 'cruise', 'health', 'activity', 'settings'] as const;
export type NavTab = (typeof NAV_TABS)[number];
/** The bottom navigation (spec section 2): cruise hidden in marry-only or with cruising off; health and activity by their switches. */
export function visibleTabs(prefs: AppPreferences): NavTab[] {
  return NAV_TABS.filter((t) => {
    if (t === 'cruise') return prefs.appMode !== 'marry' && prefs.cruisingEnabled;
    if (t === 'health') return prefs.healthEnabled;
    if (t === 'activity') return prefs.activityTrackingEnabled;
    return true;
  });
}

/** Mode labels (spec section 1): dating (heart), hookup "now" (fire), anything else Unknown. */
export function modeLabel(mode: unknown): 'Dating' | 'Hookup' | 'Unknown' {
  return mode === 'dating' ? 'Dating' : mode === 'now' ? 'Hookup' : 'Unknown';
}

/** The toast shown after a manual switch (spec section 4). */
export function modeSwitchToast(to: ProfileMode): { title: string; message: string } {
  return to === 'dating'
    ? { title: 'Switched to Dating Mode', message: 'Showing people looking for something meaningful.' }
    : { title: 'Switched to Hookup Mode', message: 'Showing who is around and up for it now.' };
}

export const AUTO_SWITCH_INTERVAL_MS = 60_000;
export const MODE_DIM_OPACITY = 0.7;
export const MODE_DIM_MS = 150;
export const GRID_REFRESH_DELAY_MS = 1500;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time like 09:00.');
export function minutesOfDay(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/**
 * Whether a minute of the day lies in [start, end). A window whose end is before its start
 * crosses midnight (22:00–02:00); equal start and end means the whole day.
 */
export function isWithinWindow(minute: number, start: string, end: string): boolean {
  const s = minutesOfDay(start);
  const e = minutesOfDay(end);
  const m = ((minute % 1440) + 1440) % 1440;
  if (s === e) return true;
  return s < e ? m >= s && m < e : m >= s || m < e;
}

/** Auto switching (spec section 4): dating inside the dating window, hookup outside. */
export function autoModeAt(localMinute: number, window: { datingStart: string; datingEnd: string }): ProfileMode {
  return isWithinWindow(localMinute, window.datingStart, window.datingEnd) ? 'dating' : 'now';
}

export const modePreferenceSchema = z.object({
  ageRange: preferencesSchema.shape.ageRange,
  saferOptions: z.boolean(),
  healthTracking: z.boolean(),
});

/** Client app / mode settings (spec section 3 "Client app settings"), synced to the server. */
export const modeSettingsSchema = z.object({
  modePreferences: z.object({ dating: modePreferenceSchema, now: modePreferenceSchema }),
  hasCompletedModeSetup: z.boolean(),
  useMetric: z.boolean(),
  autoSwitchByTime: z.boolean(),
  timeBasedSwitching: z.object({ datingStart: hhmm, datingEnd: hhmm }),
  privacySettings: z.object({ showModeInProfile: z.boolean(), allowCrossModeMatching: z.boolean() }),
});
export type ModeSettings = z.infer<typeof modeSettingsSchema>;
export const DEFAULT_MODE_SETTINGS: ModeSettings = {
  modePreferences: {
    dating: { ageRange: [22, 35], saferOptions: true, healthTracking: true },
    now: { ageRange: [18, 50], saferOptions: false, healthTracking: false },
  },
  hasCompletedModeSetup: false,
  useMetric: false,
  autoSwitchByTime: false,
  timeBasedSwitching: { datingStart: '09:00', datingEnd: '21:00' },
  privacySettings: { showModeInProfile: true, allowCrossModeMatching: false },
};
