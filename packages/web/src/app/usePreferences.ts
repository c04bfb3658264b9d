import { useCallback, useSyncExternalStore } from 'react';
import { APP_PREFERENCES_KEY, type AppPreferences, parseAppPreferences, writeAppPreferences } from './preferences.ts';

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

/** The locally stored app preferences, shared by every component and tab. */
export function useAppPreferences(): [AppPreferences, (patch: Partial<AppPreferences>) => void] {
  const prefs = useSyncExternalStore(subscribe, snapshot, snapshot);
  const update = useCallback((patch: Partial<AppPreferences>) => {
    const next = { ...snapshot(), ...patch };
    if (next.appMode === 'marry') next.cruisingEnabled = false;
    writeAppPreferences(next);
    window.dispatchEvent(new Event(EVENT));
  }, []);
  return [prefs, update];
}
