import { useSyncExternalStore } from 'react';
import { type CallInput, call, type ResponseOf } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';
import type { Endpoint } from '../../api/endpoints.ts';
import { saveBlob } from '../../shared/files.ts';

/**
 * The staff session, apart from the member's: its token lives in this tab's
 * sessionStorage only, so closing the tab ends it on this device, and a member token is never
 * sent to /admin routes. A 401 from any staff call forgets it (the guard then shows the sign-in).
 */
const KEY = 'fmk_staff_session';
export interface StaffSession {
  token: string;
  expiresAt: string;
}

const listeners = new Set<() => void>();
let cached: string | null | undefined;

function read(): string | null {
  if (cached === undefined) cached = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(KEY);
  return cached;
}

export function staffSession(): StaffSession | null {
  const raw = read();
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as StaffSession;
    return new Date(s.expiresAt).getTime() > Date.now() ? s : null;
  } catch {
    return null;
  }
}

export function setStaffSession(s: StaffSession | null): void {
  cached = s ? JSON.stringify(s) : null;
  if (s) sessionStorage.setItem(KEY, cached!);
  else sessionStorage.removeItem(KEY);
  for (const l of listeners) l();
}

export function useStaffToken(): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => staffSession()?.token ?? null,
  );
}

/** call() with the staff token; a 401 ends the staff session here. */
export async function staffCall<E extends Endpoint>(endpoint: E, input?: Omit<CallInput<E>, 'token'>): Promise<ResponseOf<E>> {
  const token = staffSession()?.token ?? null;
  try {
    return await (call as (e: E, i: CallInput<E>) => Promise<ResponseOf<E>>)(endpoint, {
      ...(input ?? {}),
      token,
    } as CallInput<E>);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) setStaffSession(null);
    throw err;
  }
}

/** Bytes served only with a token (a report's screenshot), fetched with the staff one. */
export async function staffBlob(path: string): Promise<Blob> {
  const token = staffSession()?.token;
  const res = await fetch(`/api/v1${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new ApiError(res.status, 'Could not load it', 'error', {});
  return res.blob();
}

/** A CSV (or other bytes) download with the staff token. */
export async function staffDownload(path: string, filename: string): Promise<void> {
  const token = staffSession()?.token;
  const res = await fetch(`/api/v1${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new ApiError(res.status, 'Download failed', 'error', {});
  saveBlob(await res.blob(), filename);
}
