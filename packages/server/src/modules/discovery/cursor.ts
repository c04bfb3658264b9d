import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { BOOST_TOP_MAX } from '@fmk/core';
import type { GridKey } from './repo.ts';

/**
 * The grid's keyset cursor, sealed (AES-256-GCM) so that it is opaque and unforgeable: it holds
 * the snapped distance of the last row, which must not reach the client (a readable distance is
 * more precise than the distance label), and a forged distance must not become a fine-grained
 * distance filter. It is bound to its viewer and carries the day that seeded the tie shuffle,
 * (the viewer's tie pivot), so paging stays consistent across midnight.
 */
export interface GridCursor extends GridKey {
  viewerId: string;
  seedDay: string;
  /** The boosted men shown at the top of the first page: later pages leave them out. */
  skip?: string[];
}

/** More ids than a first page heads with boosted men is not a cursor this server sealed. */
const MAX_SKIP = BOOST_TOP_MAX;

export class CursorSealer {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = createHash('sha256').update(`fmk grid cursor\0${secret}`).digest();
  }

  seal(c: GridCursor): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([
      cipher.update(JSON.stringify([c.viewerId, c.seedDay, c.d, c.id, ...(c.skip?.length ? [c.skip] : [])]), 'utf8'),
      cipher.final(),
    ]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The cursor, or null when it is malformed, tampered with or someone else's. */
  open(token: string, viewerId: string): GridCursor | null {
    try {
      const raw = Buffer.from(token, 'base64url');
      if (raw.length < 29) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      const json = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      const [v, seedDay, d, id, skip] = JSON.parse(json) as unknown[];
      if (v !== viewerId || typeof seedDay !== 'string' || typeof d !== 'number' || typeof id !== 'string') return null;
      if (skip === undefined) return { viewerId: v, seedDay, d, id };
      if (!Array.isArray(skip) || skip.length > MAX_SKIP || !skip.every((s) => typeof s === 'string')) return null;
      return { viewerId: v, seedDay, d, id, skip: skip as string[] };
    } catch {
      return null;
    }
  }
}
