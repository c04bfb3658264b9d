import { type AppPreferences, updateAppPreferences } from '@fmk/core';
import { useCallback, useSyncExternalStore } from 'react';
import { APP_PREFERENCES_KEY, parseAppPreferences, writeAppPreferences } from './preferences.ts';

const EVENT = 'fmk:app-preferences';
let cachedRaw: string | null | undefined;
let cached: AppPreferences = parseAppPreferences(null);

function snapshot(): AppPreferences {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(APP_PREFERENCES_KEY);
  } catch {
    raw = null;
  }
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = parseAppPreferences(raw);
  }
  return cached;
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === APP_PREFERENCES_KEY) onChange();
  };
  window.addEventListener(EVENT, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** Replaces the stored preferences and tells every subscriber (this tab; other tabs get 'storage'). */
export function storeAppPreferences(prefs: AppPreferences): void {
  writeAppPreferences(prefs);
  window.dispatchEvent(new Event(EVENT));
}

/** Applies a change locally with the core rules (marry turns cruising off); returns the result. */
export function changeStoredAppPreferences(change: Partial<AppPreferences>): AppPreferences {
  const next = updateAppPreferences(snapshot(), change);
  storeAppPreferences(next);
  return next;
}

/** The locally stored app preferences, shared by every component and tab. */
export function useAppPreferences(): [AppPreferences, (change: Partial<AppPreferences>) => AppPreferences] {
  const prefs = useSyncExternalStore(subscribe, snapshot, snapshot);
  const update = useCallback((change: Partial<AppPreferences>) => changeStoredAppPreferences(change), []);
  return [prefs, update];
}
