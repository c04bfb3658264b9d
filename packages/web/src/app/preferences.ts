import { APP_MODES, type AppMode } from '@fmk/core';

/** App preferences, stored locally under 'appPreferences' (spec section 3). */
export interface AppPreferences {
  appMode: AppMode;
  cruisingEnabled: boolean;
  healthEnabled: boolean;
  activityTrackingEnabled: boolean;
  rightNowEnabled: boolean;
}

export const APP_PREFERENCES_KEY = 'appPreferences';
export const DEFAULT_APP_PREFERENCES: AppPreferences = {
  appMode: 'both',
  cruisingEnabled: true,
  healthEnabled: true,
  activityTrackingEnabled: true,
  rightNowEnabled: false,
};

/** Reads stored preferences, keeping defaults for anything missing or malformed. */
export function parseAppPreferences(raw: string | null): AppPreferences {
  if (!raw) return { ...DEFAULT_APP_PREFERENCES };
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { ...DEFAULT_APP_PREFERENCES };
  }
  if (typeof v !== 'object' || v === null) return { ...DEFAULT_APP_PREFERENCES };
  const o = v as Record<string, unknown>;
  const bool = (k: keyof AppPreferences, d: boolean) => (typeof o[k] === 'boolean' ? (o[k] as boolean) : d);
  const appMode = (APP_MODES as readonly unknown[]).includes(o.appMode)
    ? (o.appMode as AppMode)
    : DEFAULT_APP_PREFERENCES.appMode;
  return {
    appMode,
    // Choosing marry turns cruising off (spec section 3).
    cruisingEnabled: appMode === 'marry' ? false : bool('cruisingEnabled', true),
    healthEnabled: bool('healthEnabled', true),
    activityTrackingEnabled: bool('activityTrackingEnabled', true),
    rightNowEnabled: bool('rightNowEnabled', false),
  };
}

export function readAppPreferences(): AppPreferences {
  try {
    return parseAppPreferences(localStorage.getItem(APP_PREFERENCES_KEY));
  } catch {
    return { ...DEFAULT_APP_PREFERENCES };
  }
}

export function writeAppPreferences(p: AppPreferences): void {
  try {
    localStorage.setItem(APP_PREFERENCES_KEY, JSON.stringify(p));
  } catch {
    // Private mode or full storage: the preference lasts for this session only.
  }
}

export type Tab = 'grid' | 'messages' | 'cruise' | 'health' | 'activity' | 'settings';

/** The bottom navigation's tabs (spec section 2): cruise, health and activity can be hidden. */
export function visibleTabs(appMode: AppMode, prefs: AppPreferences): Tab[] {
  const tabs: Tab[] = ['grid', 'messages'];
  if (appMode !== 'marry' && prefs.cruisingEnabled) tabs.push('cruise');
  if (prefs.healthEnabled) tabs.push('health');
  if (prefs.activityTrackingEnabled) tabs.push('activity');
  tabs.push('settings');
  return tabs;
}
