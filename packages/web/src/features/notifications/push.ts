import { PUSH_TOKEN_REFRESH_MS } from '@fmk/core';
import { call } from '../../api/call.ts';

/**
 * Web Push in the browser (spec section 7 "Push"): with notification permission the
 * browser subscribes with the server's VAPID key and the subscription is PUT to the server (the
 * spec's fcmToken); it is PUT again when the stored one is older than 7 days (tokenUpdated).
 * Permission is asked only from a user gesture (PushToggle). Failures never reach the user:
 * a 'messaging not initialized' warning in the console only (spec section 8).
 */
export const PUSH_STORAGE_KEY = 'fmk.push';
/** pushManager.subscribe() can hang when no push service is reachable: give up after this. */
const SUBSCRIBE_TIMEOUT_MS = 15_000;

interface StoredPush {
  uid: string;
  endpoint: string;
  /** When the server last got this subscription (ms since epoch). */
  at: number;
}

export type PushSupport = 'unsupported' | 'denied' | 'default' | 'granted';

export function pushSupport(): PushSupport {
  if (
    typeof window === 'undefined' ||
    !('Notification' in window) ||
    !('serviceWorker' in navigator) ||
    !('PushManager' in window)
  ) {
    return 'unsupported';
  }
  return Notification.permission;
}

/** The VAPID public key (base64url) as the bytes pushManager.subscribe() wants. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export function readStoredPush(): StoredPush | null {
  try {
    const v = JSON.parse(localStorage.getItem(PUSH_STORAGE_KEY) ?? 'null') as StoredPush | null;
    return v && typeof v.endpoint === 'string' && typeof v.at === 'number' && typeof v.uid === 'string' ? v : null;
  } catch {
    return null;
  }
}

function storePush(v: StoredPush | null): void {
  try {
    if (v) localStorage.setItem(PUSH_STORAGE_KEY, JSON.stringify(v));
    else localStorage.removeItem(PUSH_STORAGE_KEY);
  } catch {
    // Private mode: we simply PUT again next time.
  }
}

/** The server needs this subscription (again): another user, another endpoint, or 7 days old. */
export function needsPut(stored: StoredPush | null, uid: string, endpoint: string, now: number): boolean {
  return !stored || stored.uid !== uid || stored.endpoint !== endpoint || now - stored.at >= PUSH_TOKEN_REFRESH_MS;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

function keysOf(sub: PushSubscription): { endpoint: string; keys: { p256dh: string; auth: string } } {
  const json = sub.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!json.endpoint || !p256dh || !auth) throw new Error('push subscription without keys');
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}

/**
 * Makes sure this browser's subscription is on the server for `uid`. Subscribes only when
 * permission is already granted (never prompts). Returns whether a subscription is in place.
 */
export async function syncPushSubscription(opts: { uid: string; vapidPublicKey: string | null; now?: number }): Promise<boolean> {
  try {
    if (!opts.vapidPublicKey || pushSupport() !== 'granted') return false;
    const reg = await withTimeout(navigator.serviceWorker.ready, SUBSCRIBE_TIMEOUT_MS, 'service worker');
    let sub = await reg.pushManager.getSubscription();
    if (!sub) {
      sub = await withTimeout(
        reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(opts.vapidPublicKey) }),
        SUBSCRIBE_TIMEOUT_MS,
        'push subscribe',
      );
    }
    const body = keysOf(sub);
    const now = opts.now ?? Date.now();
    if (needsPut(readStoredPush(), opts.uid, body.endpoint, now)) {
      await call('PUT /me/push-subscription', { body });
      storePush({ uid: opts.uid, endpoint: body.endpoint, at: now });
    }
    return true;
  } catch (err) {
    console.warn('messaging not initialized', err);
    return false;
  }
}

/** From a user gesture: asks permission when not yet decided, then subscribes. */
export async function enablePush(opts: { uid: string; vapidPublicKey: string | null }): Promise<PushSupport> {
  let support = pushSupport();
  if (support === 'default') {
    try {
      support = await Notification.requestPermission();
    } catch (err) {
      console.warn('messaging not initialized', err);
      return support;
    }
  }
  if (support === 'granted') await syncPushSubscription(opts);
  return support;
}

/** Stops pushes to this browser: unsubscribes and tells the server. */
export async function disablePush(): Promise<void> {
  try {
    if (pushSupport() === 'unsupported') return;
    const reg = await navigator.serviceWorker.getRegistration();
    const sub = await reg?.pushManager.getSubscription();
    if (sub) {
      await call('DELETE /me/push-subscription', { body: { endpoint: sub.endpoint } });
      await sub.unsubscribe();
    }
    storePush(null);
  } catch (err) {
    console.warn('messaging not initialized', err);
  }
}

/** Whether this browser has a push subscription now. */
export async function hasPushSubscription(): Promise<boolean> {
  try {
    if (pushSupport() === 'unsupported') return false;
    const reg = await navigator.serviceWorker.getRegistration();
    return Boolean(await reg?.pushManager.getSubscription());
  } catch {
    return false;
  }
}
