import { useSyncExternalStore } from 'react';

/**
 * Kill (spec section 1) is not stored: it moves on and hides that profile from the grid for
 * the session. The session is the tab's: sessionStorage survives a reload, not a new tab.
 */
const KEY = 'fmk:killed';
let killed: ReadonlySet<string> = load();
const listeners = new Set<() => void>();

function load(): ReadonlySet<string> {
  try {
    const raw = sessionStorage.getItem(KEY);
    const ids: unknown = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

export function kill(uid: string): void {
  if (killed.has(uid)) return;
  killed = new Set(killed).add(uid);
  try {
    sessionStorage.setItem(KEY, JSON.stringify([...killed]));
  } catch {
    // Storage full or blocked: the set still holds for this page's life.
  }
  for (const l of listeners) l();
}

export function isKilled(uid: string): boolean {
  return killed.has(uid);
}

/** Forgets the session's kills (sign-out, tests). */
export function resetKilled(): void {
  killed = new Set();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The profiles killed this session; a new Set object whenever it changes. */
export function useKilled(): ReadonlySet<string> {
  return useSyncExternalStore(
    subscribe,
    () => killed,
    () => killed,
  );
}
