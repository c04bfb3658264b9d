import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAnonymousId, missingProfileFields } from '@fmk/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, openTestDatabase } from '../test/harness.ts';
import type { Database } from './db/index.ts';
import { LocalDiskStorage } from './platform/storage.ts';
import { seedDemoUsers } from './seed.ts';

describe.each(DB_KINDS)('demo seed on %s', (kind) => {
  let database: Database;
  let dir: string;
  let storage: LocalDiskStorage;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    dir = await mkdtemp(path.join(tmpdir(), 'fmk-seed-'));
    storage = new LocalDiskStorage(path.join(dir, 'files'));
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates complete, sign-in-less demo users with avatars, deterministically and idempotently', async () => {
    const opts = { count: 20, city: 'Berlin', seed: 7 };
    const first = await seedDemoUsers(database.db, storage, opts);
    expect(first).toMatchObject({ created: 20, existing: 0 });
    const again = await seedDemoUsers(database.db, storage, opts);
    expect(again).toMatchObject({ created: 0, existing: 20 });
    expect(again.homes).toEqual(first.homes);
    expect(first.homes.every((h) => Math.abs(h.lat - 52.52) < 0.2 && Math.abs(h.lng - 13.405) < 0.3)).toBe(true);

    const users = await database.db.selectFrom('users').selectAll().orderBy('id').execute();
    expect(users.map((u) => u.id)).toEqual(Array.from({ length: 20 }, (_, i) => `demo-${String(i + 1).padStart(4, '0')}`));
    const names = new Set(users.map((u) => u.display_name));
    expect(names.size).toBeGreaterThan(10);
    for (const u of users) {
      expect(u.email).toBe(`${u.id}@demo.fmk.invalid`);
      expect(u.password_hash).toBeNull();
      expect(isAnonymousId(u.anonymous_id)).toBe(true);
      expect(u.onboarding_complete).toBe(true);
      expect(u.age).toBeGreaterThanOrEqual(18);
      expect(u.age).toBeLessThanOrEqual(60);
      expect(u.dating_profile.prompts.length).toBeGreaterThanOrEqual(2);
      expect(u.photo_url).toBe(`/files/photos/${u.id}/avatar.webp`);
    }
    const photos = await database.db.selectFrom('photos').selectAll().orderBy('user_id').execute();
    expect(photos).toHaveLength(20);
    for (const [i, u] of users.entries()) {
      expect(
        missingProfileFields({
          ...u,
          displayName: u.display_name,
          photos: [photos[i]],
          nowProfile: u.now_profile,
          datingProfile: u.dating_profile,
        }),
      ).toEqual([]);
      const file = await storage.get(photos[i]!.storage_key);
      expect(file).not.toBeNull();
      const chunks: Buffer[] = [];
      for await (const c of file!.stream) chunks.push(c as Buffer);
      expect((await sharp(Buffer.concat(chunks)).metadata()).format).toBe('webp');
    }
    const count = async (table: 'user_settings' | 'identity_mappings') =>
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    expect(Number(await count('user_settings'))).toBe(20);
    expect(Number(await count('identity_mappings'))).toBe(20);
    const usage = await database.db
      .selectFrom('prompts')
      .select((eb) => eb.fn.sum<number>('usage_count').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(usage.n)).toBe(users.reduce((n, u) => n + u.dating_profile.prompts.length, 0));

    // The same seed gives the same people; another seed, other people.
    const fresh = await openTestDatabase(kind);
    try {
      await seedDemoUsers(fresh.db, storage, opts);
      const replay = await fresh.db
        .selectFrom('users')
        .select(['id', 'display_name', 'anonymous_id', 'age'])
        .orderBy('id')
        .execute();
      expect(replay).toEqual(
        users.map((u) => ({ id: u.id, display_name: u.display_name, anonymous_id: u.anonymous_id, age: u.age })),
      );
      await seedDemoUsers(fresh.db, storage, { ...opts, count: 25, seed: 8 });
      const other = await fresh.db
        .selectFrom('users')
        .select(['display_name', 'anonymous_id'])
        .where('id', '>', 'demo-0020')
        .execute();
      expect(other).toHaveLength(5);
    } finally {
      await fresh.close();
    }
  });

  it('refuses an unknown city', async () => {
    await expect(seedDemoUsers(database.db, storage, { count: 1, city: 'Atlantis', seed: 1 })).rejects.toThrow(
      /Unknown SEED_CITY/,
    );
  });
});
