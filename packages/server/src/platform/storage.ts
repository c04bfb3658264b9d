import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Where uploaded files live. Local disk by default; an S3-compatible store can implement the same. */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  delete(key: string): Promise<void>;
  /**
   * Stores the object under `fromKey` under `toKey` too (replacing what was there), as two objects:
   * deleting one leaves the other. The demo seed gives one rendered portrait to many men this way.
   */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** The URL a browser uses to fetch the object. */
  url(key: string): string;
}

/** An object's whole bytes, or null when it is not there (for small files: screenshots, photos). */
export async function readObject(storage: Pick<Storage, 'get'>, key: string): Promise<Buffer | null> {
  const object = await storage.get(key);
  return object ? readAll(object.stream) : null;
}

/** A stream's whole bytes. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

const SAFE_KEY = /^[a-zA-Z0-9][a-zA-Z0-9/_.-]{0,200}$/;

export class LocalDiskStorage implements Storage {
  constructor(
    private readonly root: string,
    private readonly publicPrefix = '/files',
  ) {}

  private resolve(key: string): string {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.resolve(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
  }

  async get(key: string): Promise<{ stream: Readable; size: number } | null> {
    if (!SAFE_KEY.test(key) || key.includes('..')) return null;
    const file = this.resolve(key);
    try {
      const s = await stat(file);
      if (!s.isFile()) return null;
      return { stream: createReadStream(file), size: s.size };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  /** A hard link (no space used; a file has its data until its last name goes), a copy across devices. */
  async copy(fromKey: string, toKey: string): Promise<void> {
    const from = this.resolve(fromKey);
    const to = this.resolve(toKey);
    await mkdir(path.dirname(to), { recursive: true });
    // Linked under a temporary name, then renamed over the target: an existing one is replaced whole.
    const temp = `${to}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await link(from, temp);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
      await copyFile(from, temp);
    }
    await rename(temp, to);
  }

  url(key: string): string {
    return `${this.publicPrefix}/${key}`;
  }
}
