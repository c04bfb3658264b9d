import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import { readAll, type Storage } from '../storage.ts';
import { thumbnailOf } from './image.ts';

/** Where stored files are served (LocalDiskStorage's public prefix). */
const FILES = '/files/';
/** A profile photo's key: photos/<user>/<name>.webp (message photos live under photos/messages/). */
const PROFILE_PHOTO = /^photos\/(?!messages\/)[^/]+\/[^/]+\.webp$/;
const THUMB_SUFFIX = '.t.webp';

/** The storage key of a profile photo's grid thumbnail. */
export const thumbnailKey = (photoKey: string): string => `${photoKey.slice(0, -'.webp'.length)}${THUMB_SUFFIX}`;

/**
 * The URL of a profile photo's grid thumbnail (made on first request, see below), for a photo URL
 * of ours; any other URL (none, or an outside avatar) is returned as it is.
 */
export function thumbnailURL(url: string | null): string | null {
  if (!url?.startsWith(FILES)) return url;
  const key = url.slice(FILES.length);
  return PROFILE_PHOTO.test(key) && !key.endsWith(THUMB_SUFFIX) ? `${FILES}${thumbnailKey(key)}` : url;
}

/**
 * A thumbnail from storage, or made from its photo and stored, once however many ask at the same
 * moment. Null when the photo is not there (never stored, or deleted); a thumbnail whose photo was
 * deleted while it was being made is removed again, so a deleted photo leaves nothing behind.
 */
function thumbnails(storage: Storage) {
  const making = new Map<string, Promise<Buffer | null>>();
  const make = async (key: string, photoKey: string): Promise<Buffer | null> => {
    const photo = await storage.get(photoKey);
    if (!photo) return null;
    const data = await thumbnailOf(await readAll(photo.stream));
    await storage.put(key, data, 'image/webp');
    if (!(await storage.get(photoKey))) {
      await storage.delete(key).catch(() => undefined);
      return null;
    }
    return data;
  };
  return (key: string, photoKey: string): Promise<Buffer | null> => {
    let p = making.get(key);
    if (!p) {
      p = make(key, photoKey).finally(() => making.delete(key));
      making.set(key, p);
    }
    return p;
  };
}

/**
 * GET /files/* serves stored profile photos. Keys carry a random id and never change, so responses are
 * cached for a year; only our own re-encoded WebP files are ever served. A profile photo's
 * thumbnail (<photo>.t.webp) is made from the photo the first time it is asked for.
 */
export async function registerFileRoutes(app: FastifyInstance, deps: { storage: Storage }): Promise<void> {
  const thumbnail = thumbnails(deps.storage);
  app.get('/files/*', { schema: { hide: true } }, async (req, reply) => {
    const key = (req.params as { '*'?: string })['*'] ?? '';
    // Chat photos are private (modules/messaging/photos.ts): their old public URLs under
    // photos/messages/ answer like a missing file.
    if (!key.startsWith('photos/') || key.startsWith('photos/messages/') || !key.endsWith('.webp')) throw notFound();
    reply
      .header('Content-Type', 'image/webp')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('X-Content-Type-Options', 'nosniff');
    const object = await deps.storage.get(key);
    if (object) return reply.header('Content-Length', object.size).send(object.stream);
    const photoKey = `${key.slice(0, -THUMB_SUFFIX.length)}.webp`;
    if (!key.endsWith(THUMB_SUFFIX) || !PROFILE_PHOTO.test(photoKey)) throw notFound();
    const data = await thumbnail(key, photoKey);
    if (!data) throw notFound();
    return reply.header('Content-Length', data.length).send(data);
  });
}
