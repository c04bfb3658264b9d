import type { Me, NotificationKind, Settings, SettingsPatch, UpdateMe } from '@fmk/core';
import { readAppSettings, writeAppSettings } from './preferences.ts';

/**
 * The settings' local fallback (spec section 8: a save that fails is kept under appSettings
 * and synced when the server answers again). `pending` is the settings store's change not yet
 * saved (PATCH /me/settings), merged across saves; `pendingMe` the hub's (PATCH /me: app mode
 * and features, mode settings, units), kept with the account it belongs to; `known` the last
 * settings this device saw, which the live channel reads to decide on in-app toasts. No
 * runtime import of core: the app shell loads it.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** b over a, object by object (a later save of one switch wins over an earlier one). */
export function mergePatch<T extends object>(a: T, b: object): T {
  const merge = (x: unknown, y: unknown): unknown => {
    if (!isObj(x) || !isObj(y)) return y === undefined ? x : y;
    const out: Obj = { ...x };
    for (const [k, v] of Object.entries(y)) out[k] = merge(x[k], v);
    return out;
  };
  return merge(a, b) as T;
}

export function readPending(): SettingsPatch | null {
  const p = readAppSettings().pending;
  return isObj(p) ? (p as SettingsPatch) : null;
}

export function writePending(p: SettingsPatch | null): void {
  writeAppSettings({ pending: p ?? undefined });
}

/** Whether a value looks like GET /me/settings (a stored copy may be from an older app). */
function isSettings(v: unknown): v is Settings {
  return isObj(v) && isObj(v.privacy) && isObj(v.notifications) && isObj(v.safety) && isObj((v.notifications as Obj).kinds);
}

export function readKnown(): Settings | null {
  const k = readAppSettings().known;
  return isSettings(k) ? k : null;
}

export function writeKnown(s: Settings): void {
  if (isSettings(s)) writeAppSettings({ known: s });
}

/** Whether a toast of this kind may show (his in-app switches); yes until this device knows them. */
export function inAppAllowed(kind: NotificationKind): boolean {
  const s = readKnown();
  if (!s) return true;
  return s.notifications.channels.inApp !== false && s.notifications.kinds[kind]?.inApp !== false;
}

const listeners = new Set<() => void>();
/** For useSyncExternalStore: the pending change appears or goes. */
export function subscribePending(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
export function notifyPending(): void {
  for (const l of listeners) l();
}
/** The settings hub's part of PATCH /me. */
export type HubPatch = Pick<UpdateMe, 'appPreferences' | 'modeSettings' | 'preferences'>;

function readPendingEntry(): { uid: string; patch: HubPatch } | null {
  const e = readAppSettings().pendingMe;
  return isObj(e) && typeof e.uid === 'string' && isObj(e.patch) ? { uid: e.uid, patch: e.patch as HubPatch } : null;
}

/** The hub's change waiting for this account; one left by another account is dropped. */
export function readPendingMe(uid: string): HubPatch | null {
  const e = readPendingEntry();
  if (e && e.uid !== uid) writeAppSettings({ pendingMe: undefined });
  return e?.uid === uid ? e.patch : null;
}

export function writePendingMe(uid: string, patch: HubPatch | null): void {
  writeAppSettings({ pendingMe: patch ? { uid, patch } : undefined });
}

/** His record as the server keeps it, with the hub's change still waiting on this device over it. */
export function withPendingMe(user: Me): Me {
  const p = readPendingMe(user.uid);
  return p ? mergePatch(user, p) : user;
}

export const hasPending = (): boolean => readPending() !== null || readPendingEntry() !== null;
