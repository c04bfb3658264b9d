import { APP_MODES, type AppMode, type AppPreferences, DEFAULT_APP_PREFERENCES, updateAppPreferences } from '@fmk/core';

/** Storage glue for the app preferences (spec section 3): the rules live in core (modes.ts). */
export const APP_PREFERENCES_KEY = 'appPreferences';
/**
 * Settings that could not be saved to the server (spec section 8: falls back to appSettings):
 * the changes waiting to sync, `pending` and `pendingMe`, and the settings last seen, `known`
 * (settingsLocal.ts).
 */
export const APP_SETTINGS_KEY = 'appSettings';

/** The appSettings object, {} when missing or unreadable. */
export function readAppSettings(): Record<string, unknown> {
  try {
    return parseJson(localStorage.getItem(APP_SETTINGS_KEY)) ?? {};
  } catch {
    return {};
  }
}

/** Merges `change` into appSettings (a key set to undefined is removed). */
export function writeAppSettings(change: Record<string, unknown>): void {
  try {
    localStorage.setItem(APP_SETTINGS_KEY, JSON.stringify({ ...readAppSettings(), ...change }));
  } catch {
    // Storage unavailable: the change lasts for this session only.
  }
}

function parseJson(raw: string | null): Record<string, unknown> | null {
  if (!raw) return null;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Reads stored preferences field by field, keeping the default for anything missing or malformed.
 * Plain checks rather than the zod schema: this runs on the first screen, which stays free of zod.
 */
export function parseAppPreferences(raw: string | null): AppPreferences {
  const o = parseJson(raw) ?? {};
  const bool = (k: Exclude<keyof AppPreferences, 'appMode'>) =>
    typeof o[k] === 'boolean' ? (o[k] as boolean) : DEFAULT_APP_PREFERENCES[k];
  const appMode = (APP_MODES as readonly unknown[]).includes(o.appMode)
    ? (o.appMode as AppMode)
    : DEFAULT_APP_PREFERENCES.appMode;
  // updateAppPreferences applies the rule that marry turns cruising off.
  return updateAppPreferences(DEFAULT_APP_PREFERENCES, {
    appMode,
    cruisingEnabled: bool('cruisingEnabled'),
    healthEnabled: bool('healthEnabled'),
    activityTrackingEnabled: bool('activityTrackingEnabled'),
    rightNowEnabled: bool('rightNowEnabled'),
  });
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
