import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';
import { discoveryKeys } from '../../shared/queryKeys.ts';

/**
 * Location sharing. The browser's position goes up once consent is given; the server
 * snaps it to a 500 m cell before keeping it, and nobody ever receives it back.
 */
export const LOCATION_CONSENT_KEY = 'fmk:location-consent';
export const LOCATION_UPDATED_KEY = 'fmk:location-updated-at';
/** A position refresh on load at most this often (the server accepts one per 30 s). */
export const LOCATION_REFRESH_MS = 5 * 60_000;

export const LOCATION_MESSAGES = {
  denied: "Location is blocked for FMK. Allow it in your browser's site settings, then try again.",
  unavailable: "We couldn't find your location. Check that location services are on, then try again.",
  unsupported: "This browser can't share a location. Try another browser to see men nearby.",
  failed: "Your location couldn't be saved. Please try again.",
} as const;

export type LocationProblem = keyof typeof LOCATION_MESSAGES;

export class LocationError extends Error {
  override readonly name = 'LocationError';
  constructor(readonly problem: LocationProblem) {
    super(LOCATION_MESSAGES[problem]);
  }
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode: sharing still works, it is only asked again next time.
  }
}

export const hasLocalConsent = () => read(LOCATION_CONSENT_KEY) === '1';

/** The browser's position, coarse (no GPS needed: the server rounds to 500 m anyway). */
export function currentPosition(): Promise<{ lat: number; lng: number }> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      reject(new LocationError('unsupported'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude }),
      (e) => reject(new LocationError(e.code === 1 ? 'denied' : 'unavailable')),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: LOCATION_REFRESH_MS },
    );
  });
}

/** PUT /me/location; a 429 (updated under 30 s ago) is fine: the server already has us. */
export async function putLocation(pos: { lat: number; lng: number }, now = Date.now()): Promise<void> {
  try {
    await call('PUT /me/location', { body: pos });
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 429)) throw e;
  }
  write(LOCATION_UPDATED_KEY, String(now));
}

/** Consent, then the position, then the grid again. */
export async function shareLocation(): Promise<void> {
  // Ask the browser first: a refusal there stores no consent on the server.
  const pos = await currentPosition();
  try {
    await call('PUT /me/location/consent', { body: { consent: true } });
    await putLocation(pos);
  } catch (e) {
    if (e instanceof ApiError && e.status === 429) return;
    throw e instanceof LocationError ? e : new LocationError('failed');
  }
  write(LOCATION_CONSENT_KEY, '1');
}

/** Stops sharing: the server forgets the position and the grid empties. */
export async function stopSharingLocation(): Promise<void> {
  await call('DELETE /me/location');
  write(LOCATION_CONSENT_KEY, null);
  write(LOCATION_UPDATED_KEY, null);
}

export function isLocationStale(now = Date.now()): boolean {
  const at = Number(read(LOCATION_UPDATED_KEY));
  return !Number.isFinite(at) || now - at >= LOCATION_REFRESH_MS;
}

async function permissionGranted(): Promise<boolean> {
  try {
    const status = await navigator.permissions?.query({ name: 'geolocation' });
    return status?.state === 'granted';
  } catch {
    return false;
  }
}

/**
 * The consent card's action: state for the button and the message, and the share itself.
 * On success the grid is fetched again.
 */
export function useShareLocation() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ status: 'idle' | 'working' | 'error'; problem?: LocationProblem }>({ status: 'idle' });
  const share = useCallback(async () => {
    setState({ status: 'working' });
    try {
      await shareLocation();
      setState({ status: 'idle' });
      await queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
    } catch (e) {
      setState({ status: 'error', problem: e instanceof LocationError ? e.problem : 'failed' });
    }
  }, [queryClient]);
  return { ...state, share };
}

/**
 * While consent stands (and the browser already allows it, so no prompt appears), refresh the
 * position on load at most every 5 minutes. Quiet: a failure keeps the last known cell.
 */
export function useLocationRefresh(hasLocation: boolean | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!hasLocation && !hasLocalConsent()) return;
    if (!isLocationStale()) return;
    let cancelled = false;
    void (async () => {
      if (!(await permissionGranted()) || cancelled) return;
      try {
        await putLocation(await currentPosition());
        // A first position after a consent given elsewhere: the grid has people now.
        if (!hasLocation && !cancelled) void queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
      } catch (e) {
        if (e instanceof ApiError && (e.status === 403 || e.status === 400)) write(LOCATION_CONSENT_KEY, null);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [hasLocation, queryClient]);
}
