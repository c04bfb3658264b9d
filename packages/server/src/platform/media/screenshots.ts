import { randomUUID } from 'node:crypto';
import { type Actor, can } from '@fmk/core';
import { notFound } from '../errors.ts';
import { readObject, type Storage } from '../storage.ts';
import { reencodePhoto } from './image.ts';

/** A stored screenshot, for the caller's row. */
export interface StoredScreenshot {
  id: string;
  storageKey: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * A screenshot a member attaches to a report (a safety report, a bug report): the photo pipeline
 * (WebP, no metadata), stored under `<folder>/<member>/<id>.webp`. Not under photos/, so
 * GET /files/* never serves it: only its member and staff read it, through `readScreenshot`.
 * `record` writes its row (checking the caller's limits); if it throws, the file is deleted
 * again, so a refused upload leaves nothing behind.
 */
export async function storeScreenshot(
  storage: Storage,
  folder: string,
  userId: string,
  upload: Buffer,
  record: (shot: StoredScreenshot) => Promise<unknown>,
): Promise<{ id: string; width: number; height: number }> {
  const encoded = await reencodePhoto(upload);
  const id = randomUUID();
  const storageKey = `${folder}/${userId}/${id}.webp`;
  await storage.put(storageKey, encoded.data, 'image/webp');
  try {
    await record({ id, storageKey, width: encoded.width, height: encoded.height, bytes: encoded.data.length });
  } catch (err) {
    await storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
  return { id, width: encoded.width, height: encoded.height };
}

/**
 * A screenshot's bytes, to the member who took it or to staff who review reports. Anyone else,
 * and a screenshot that is gone, get the same not found, so its id tells a stranger nothing.
 */
export async function readScreenshot(
  storage: Pick<Storage, 'get'>,
  actor: Actor,
  shot: { user_id: string; storage_key: string } | undefined,
  notFoundMessage: string,
): Promise<Buffer> {
  const mayRead = shot && (shot.user_id === actor.id || can(actor, 'admin.reports.view').allowed);
  if (!mayRead) throw notFound(notFoundMessage);
  const bytes = await readObject(storage, shot.storage_key);
  if (!bytes) throw notFound(notFoundMessage);
  return bytes;
}
