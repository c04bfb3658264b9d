import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalDiskStorage, type Storage } from './storage.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function read(storage: Storage, key: string): Promise<string | null> {
  const o = await storage.get(key);
  if (!o) return null;
  const parts: Buffer[] = [];
  for await (const p of o.stream) parts.push(p as Buffer);
  return Buffer.concat(parts).toString();
}

describe('local disk storage', () => {
  it('copies an object as a second one that outlives the first, replacing what the target held', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'fmk-storage-'));
    dirs.push(root);
    const storage: Storage = new LocalDiskStorage(root);
    await storage.put('photos/a/one.webp', Buffer.from('first'), 'image/webp');
    await storage.put('photos/b/two.webp', Buffer.from('old'), 'image/webp');
    await storage.copy('photos/a/one.webp', 'photos/b/two.webp');
    await storage.copy('photos/a/one.webp', 'photos/c/three.webp');
    expect(await read(storage, 'photos/b/two.webp')).toBe('first');
    // On one disk a copy is a hard link: no space used.
    expect(statSync(path.join(root, 'photos/a/one.webp')).nlink).toBe(3);

    await storage.delete('photos/a/one.webp');
    expect(await read(storage, 'photos/a/one.webp')).toBeNull();
    expect(await read(storage, 'photos/c/three.webp')).toBe('first');
    await expect(storage.copy('photos/a/one.webp', 'photos/d/four.webp')).rejects.toThrow(/ENOENT/);
    await expect(storage.copy('photos/c/three.webp', '../escape.webp')).rejects.toThrow(/Unsafe storage key/);
  });
});
