/// <reference lib="webworker" />
import { matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { isCachedPhoto, PHOTO_CACHE, PHOTO_CACHE_MAX } from './features/offline/photoCache.ts';

/** The service worker at /sw.js: offline shell, push notifications. */
// `self` is typed as Window here (the app's tsconfig has the DOM lib too), hence the casts.
const sw = self as unknown as ServiceWorkerGlobalScope;
type ManifestEntry = string | { url: string; revision: string | null };

// Navigations go to the network first so a deploy is seen at once; offline they get the
// precached app shell. API calls are never answered from the cache (the app keeps its own
// offline copy of what it may, features/offline/persist.ts). Registered before
// precacheAndRoute so it sees navigations first.
sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.mode !== 'navigate') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/files/')) return;
  event.respondWith(
    fetch(request).catch(
      async () => (await matchPrecache('/index.html')) ?? (await matchPrecache('index.html')) ?? Response.error(),
    ),
  );
});

// Photos: from the cache when there, else from the network and kept (a bounded number), so that
// the grid and the chats shown offline have their faces. Their names never change.
let trimming = false;
sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !isCachedPhoto(new URL(request.url), sw.location.origin)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(PHOTO_CACHE);
      const hit = await cache.match(request);
      if (hit) return hit;
      const res = await fetch(request);
      if (res.ok && res.type === 'basic') {
        event.waitUntil(
          cache.put(request, res.clone()).then(() => {
            if (trimming) return;
            trimming = true;
            // Once a burst of photos (a page of the grid) is in, not after each one.
            return new Promise((r) => setTimeout(r, 2000))
              .then(() => trimPhotos(cache))
              .finally(() => {
                trimming = false;
              });
          }),
        );
      }
      return res;
    })(),
  );
});

/** Keeps the newest PHOTO_CACHE_MAX photos: the cache lists them oldest first. */
async function trimPhotos(cache: Cache): Promise<void> {
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - PHOTO_CACHE_MAX)).map((k) => cache.delete(k)));
}

// workbox-build replaces the literal `self.__WB_MANIFEST` with the precache list at build time.
precacheAndRoute((self as unknown as { __WB_MANIFEST: ManifestEntry[] }).__WB_MANIFEST);

// The first install takes the open page over at once (an update already does, through
// SKIP_WAITING): the photos it shows from then on are kept for offline use.
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void sw.skipWaiting();
});

interface PushPayload {
  title?: string;
  body?: string;
  icon?: string;
  tag?: string;
  data?: { url?: string };
  url?: string;
}

function readPush(event: PushEvent): PushPayload {
  if (!event.data) return {};
  try {
    return event.data.json() as PushPayload;
  } catch {
    return { body: event.data.text() };
  }
}

// A push from the server (packages/server/src/platform/push.ts): {title, body, url, tag}.
// Open tabs also hear of it (the app may show a toast instead); the notification shows anyway,
// as browsers require for userVisibleOnly subscriptions.
sw.addEventListener('push', (event) => {
  const p = readPush(event);
  const url = sameOriginPath(p.data?.url ?? p.url ?? '/');
  const title = p.title ?? 'FMK';
  const body = p.body ?? '';
  event.waitUntil(
    (async () => {
      await sw.registration.showNotification(title, {
        body,
        icon: p.icon ?? '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        ...(p.tag ? { tag: p.tag } : {}),
        data: { url },
      });
      const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const w of windows) w.postMessage({ type: 'push', title, body, url });
    })(),
  );
});

/** Only paths of this site are opened from a notification. */
function sameOriginPath(url: string): string {
  try {
    const u = new URL(url, sw.location.origin);
    return u.origin === sw.location.origin ? `${u.pathname}${u.search}${u.hash}` : '/';
  } catch {
    return '/';
  }
}

// A click focuses a tab already on that screen, else brings a tab of the app there, else opens one.
sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = sameOriginPath((event.notification.data as { url?: string } | null)?.url ?? '/');
  const target = new URL(path, sw.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = (await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })).filter(
        (w) => new URL(w.url).origin === sw.location.origin,
      );
      const same = windows.find((w) => w.url === target);
      if (same) return void (await same.focus());
      const any = windows[0];
      if (any) {
        try {
          const focused = await any.focus();
          return void (await focused.navigate(target));
        } catch {
          // An uncontrolled tab cannot be navigated from here: open a new one.
        }
      }
      await sw.clients.openWindow(target);
    })(),
  );
});
