import { availableParallelism } from 'node:os';
import {
  ACCEPTED_PHOTO_FORMATS,
  Messages,
  PHOTO_MAX_DIMENSION,
  PHOTO_MAX_INPUT_PIXELS,
  PHOTO_THUMB,
  PHOTO_WEBP_QUALITY,
} from '@fmk/core';
import sharp, { type Metadata } from 'sharp';
import { BackgroundQueue } from '../background.ts';
import { badRequest } from '../errors.ts';

export interface EncodedPhoto {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Image jobs: one more than the CPUs (the extra one keeps every CPU busy across a job's hand-overs
 * to the event loop), and never every one of libuv's threads; the rest wait their turn. Each job
 * holds a libuv thread for its whole length (sharp runs libvips on one thread per image here:
 * glibc without jemalloc), so the threads left free serve the file writes, password hashing and
 * the rest, which would otherwise queue behind a burst of photos. `npm start` sizes libuv's pool
 * to the CPUs (scripts/start.mjs); measured on 2 CPUs: 2 jobs 0.75 of bare sharp, 3 jobs 0.84–0.90.
 */
const LIBUV_THREADS = Number(process.env.UV_THREADPOOL_SIZE) || 4;
export const IMAGE_JOBS = Math.max(1, Math.min(availableParallelism() + 1, LIBUV_THREADS - 1));
const imageJobs = new BackgroundQueue(IMAGE_JOBS, () => {});

/**
 * Checks an upload by its bytes (never its name or declared type) and re-encodes it to WebP.
 * Re-encoding without `withMetadata` drops EXIF (GPS, camera), XMP and IPTC, so a photo never
 * gives away where it was taken. `.rotate()` first bakes the EXIF orientation into the pixels.
 * libvips does the work on its own threads, so awaiting it does not block the event loop.
 */
export async function reencodePhoto(input: Buffer): Promise<EncodedPhoto> {
  reencoding++;
  try {
    return await imageJobs.run(() => reencode(input));
  } finally {
    reencoding--;
    // After the upload's own continuation (its storage write, its answer), and only if no other
    // re-encode began meanwhile.
    if (reencoding === 0)
      setImmediate(() => {
        if (reencoding === 0) for (const wake of [...idleWaiters]) wake();
      });
  }
}

/** Re-encodes under way in this process (every app in it shares the same CPUs). */
let reencoding = 0;
const idleWaiters = new Set<() => void>();

/**
 * Resolves once no upload is being re-encoded in this process, or after `maxWaitMs`: background
 * image work (moderation's scoring) waits for it, so a member's upload has the CPUs to itself and
 * a burst of uploads is scored just after, not during.
 */
export function photoWorkIdle(maxWaitMs: number): Promise<void> {
  if (reencoding === 0 || maxWaitMs <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      idleWaiters.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, maxWaitMs);
    idleWaiters.add(wake);
  });
}

async function reencode(input: Buffer): Promise<EncodedPhoto> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (err) {
    const unknownFormat = err instanceof Error && /unsupported image format/i.test(err.message);
    throw badRequest(unknownFormat ? Messages.photoType : Messages.photoUnreadable);
  }
  if (!(ACCEPTED_PHOTO_FORMATS as readonly string[]).includes(meta.format ?? '')) throw badRequest(Messages.photoType);
  if ((meta.width ?? 0) * (meta.height ?? 0) > PHOTO_MAX_INPUT_PIXELS) throw badRequest(Messages.photoTooManyPixels);
  try {
    const { data, info } = await sharp(input, { limitInputPixels: PHOTO_MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: PHOTO_MAX_DIMENSION, height: PHOTO_MAX_DIMENSION, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: PHOTO_WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    // Recognised header, undecodable body: truncated files, HEVC-coded HEIC without a decoder.
    throw badRequest(Messages.photoUnreadable);
  }
}

/**
 * A grid thumbnail of one of our stored (already re-encoded, metadata-free) photos: cropped to
 * the cell's shape around its most interesting part (sharp's attention strategy: skin tones,
 * saturation, detail), as WebP with no metadata.
 */
export function thumbnailOf(webp: Buffer): Promise<Buffer> {
  return imageJobs.run(() => thumbnail(webp));
}

function thumbnail(webp: Buffer): Promise<Buffer> {
  return sharp(webp)
    .resize({
      width: PHOTO_THUMB.width,
      height: PHOTO_THUMB.height,
      fit: 'cover',
      position: 'attention',
      withoutEnlargement: false,
    })
    .webp({ quality: PHOTO_THUMB.quality })
    .toBuffer();
}
