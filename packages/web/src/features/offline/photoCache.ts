/**
 * The service worker's cache of photos (src/sw.ts): what a grid, a chat or a list showed, so
 * that the offline copy (persist.ts) shows faces too. Files under /files/ never change (their
 * names carry a random id), so a kept copy is always right. Shared by the page, which deletes it
 * on sign-out, and the worker; nothing else may be imported here (it is built into both).
 */
export const PHOTO_CACHE = 'fmk-photos-v1';
/** At most this many photos are kept (thumbnails are ~15 kB, photos up to ~200 kB); the oldest go first. */
export const PHOTO_CACHE_MAX = 400;

/** Same-origin stored photos: /files/photos/… */
export function isCachedPhoto(url: URL, origin: string): boolean {
  return url.origin === origin && url.pathname.startsWith('/files/photos/');
}
