import {
  ACCEPTED_PHOTO_FORMATS,
  Messages,
  PHOTO_MAX_DIMENSION,
  PHOTO_MAX_INPUT_PIXELS,
  PHOTO_THUMB,
  PHOTO_WEBP_QUALITY,
} from '@fmk/core';
import sharp, { type Metadata } from 'sharp';
import { badRequest } from '../errors.ts';

export interface EncodedPhoto {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Checks an upload by its bytes (never its name or declared type) and re-encodes it to WebP.
 * Re-encoding without `withMetadata` drops EXIF (GPS, camera), XMP and IPTC, so a photo never
 * gives away where it was taken. `.rotate()` first bakes the EXIF orientation into the pixels.
 * libvips does the work on its own threads, so awaiting it does not block the event loop.
 */
export async function reencodePhoto(input: Buffer): Promise<EncodedPhoto> {
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
export async function thumbnailOf(webp: Buffer): Promise<Buffer> {
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
