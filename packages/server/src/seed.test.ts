import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAnonymousId, MINUTE, missingProfileFields, PHOTO_THUMB, STARTER_PROMPTS } from '@fmk/core';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_KINDS, openTestDatabase, useTestApp } from '../test/harness.ts';
import type { Db } from './db/index.ts';
import { thumbnailKey } from './platform/media/files.ts';
import { LocalDiskStorage, type Storage } from './platform/storage.ts';
import { DEMO_VIEWER, demoEmail, type SeedResult, seedDemoUsers, VIEWER_LIKERS } from './seed.ts';
import { FACE_COUNT, faceOf, lookOf, PORTRAIT, PortraitPool, portraitSvg, renderPortrait, VARIANTS } from './seed-portraits.ts';

/** One cache of rendered portraits for the file, so each portrait is rendered once here. */
const cacheDir = mkdtempSync(path.join(tmpdir(), 'fmk-portraits-'));
const portraits = new PortraitPool(cacheDir);
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const PASSWORD = 'demo-password';
const COUNT = 30;
const OPTS = { count: COUNT, city: 'Berlin', seed: 7, password: PASSWORD };

async function bytesOf(storage: Storage, key: string): Promise<Buffer | null> {
  const file = await storage.get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function count(
  db: Db,
  table: 'users' | 'photos' | 'user_settings' | 'identity_mappings' | 'selections' | 'cruise_sessions',
) {
  const r = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

describe('demo portraits', () => {
  it('draws adult men: the same face in every variant, other clothes and scenes', () => {
    const face = faceOf(3);
    expect(faceOf(3)).toEqual(face);
    const svgs = Array.from({ length: VARIANTS }, (_, v) => portraitSvg(face, v));
    expect(new Set(svgs).size).toBe(VARIANTS);
    for (const svg of svgs) {
      expect(svg).toContain(`width="${PORTRAIT.width}" height="${PORTRAIT.height}"`);
      expect(svg).toContain(face.skin);
      expect(svg).not.toContain('mask');
    }
    const faces = Array.from({ length: FACE_COUNT }, (_, f) => faceOf(f));
    expect(new Set(faces.map((f) => JSON.stringify({ ...f, index: 0 }))).size).toBe(FACE_COUNT);
    expect(faces.filter((f) => f.beard).length / FACE_COUNT).toBeGreaterThan(0.5);
    expect(new Set(faces.map((f) => f.skin)).size).toBe(5);
    for (const f of faces) expect(Array.from({ length: VARIANTS }, (_, v) => lookOf(f, v).sunglasses)).toContain(false);
    expect(() => faceOf(FACE_COUNT)).toThrow(RangeError);
    expect(() => portraitSvg(face, VARIANTS)).toThrow(RangeError);
  });

  it('renders WebP with no metadata, and its grid thumbnail', async () => {
    const r = await renderPortrait(portraitSvg(faceOf(0), 0));
    const photo = await sharp(r.photo).metadata();
    expect(photo).toMatchObject({ format: 'webp', width: PORTRAIT.width, height: PORTRAIT.height });
    expect(photo.exif).toBeUndefined();
    expect(photo.xmp).toBeUndefined();
    expect(photo.icc).toBeUndefined();
    expect(await sharp(r.thumbnail).metadata()).toMatchObject({
      format: 'webp',
      width: PHOTO_THUMB.width,
      height: PHOTO_THUMB.height,
    });
  });
});

describe.each(DB_KINDS)('demo seed on %s', (kind) => {
  const t = useTestApp(kind);
  let storage: LocalDiskStorage;
  let first: SeedResult;

  const login = async (email: string, password = PASSWORD) =>
    t().app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  const bearer = async (email: string) => {
    const res = await login(email);
    expect(res.statusCode, `${email} signs in`).toBe(200);
    return { authorization: `Bearer ${(res.json() as { token: string }).token}` };
  };

  it('makes men who look like people: portraits, prompts, Hookup mode, cruising, online', async () => {
    storage = new LocalDiskStorage(t().config.filesDir);
    const now = t().clock.now();
    first = await seedDemoUsers(t().db, storage, { ...OPTS, portraits }, now);
    expect(first).toMatchObject({ created: COUNT, existing: 0 });
    expect(first.homes.every((h) => Math.abs(h.lat - 52.52) < 0.2 && Math.abs(h.lng - 13.405) < 0.3)).toBe(true);

    const men = await t().db.selectFrom('users').selectAll().where('id', 'like', 'demo-0%').orderBy('id').execute();
    expect(men.map((u) => u.id)).toEqual(Array.from({ length: COUNT }, (_, i) => `demo-${String(i + 1).padStart(4, '0')}`));
    expect(new Set(men.map((u) => u.display_name)).size).toBeGreaterThan(COUNT / 2);
    expect(new Set(men.map((u) => u.bio)).size).toBe(COUNT);
    const photos = await t().db.selectFrom('photos').selectAll().orderBy('user_id').orderBy('position').execute();
    const firstFaces = new Set<string>();
    for (const u of men) {
      expect(u.email).toBe(demoEmail(u.id));
      expect(u.password_hash).toMatch(/^\$argon2id\$/);
      expect(isAnonymousId(u.anonymous_id)).toBe(true);
      expect(u.onboarding_complete).toBe(true);
      expect(u.age).toBeGreaterThanOrEqual(18);
      expect(u.age).toBeLessThanOrEqual(60);
      // At least two starter prompts, answered.
      expect(u.dating_profile.prompts.length).toBeGreaterThanOrEqual(2);
      for (const p of u.dating_profile.prompts) {
        expect(STARTER_PROMPTS.map((s) => s.text)).toContain(p.question);
        expect(p.answer.trim().length).toBeGreaterThan(2);
      }
      expect(u.now_profile.position).toBeTruthy();
      expect(u.now_profile.quickStats.height).toBeGreaterThanOrEqual(150);
      expect(u.now_profile.lookingFor.length).toBeGreaterThan(0);

      // Two or three photos, each a stored WebP with no metadata and its grid thumbnail.
      const own = photos.filter((p) => p.user_id === u.id);
      expect(own.length).toBeGreaterThanOrEqual(2);
      expect(own.length).toBeLessThanOrEqual(3);
      expect(own.map((p) => p.position)).toEqual(own.map((_, i) => i));
      expect(u.photo_url).toBe(storage.url(own[0]!.storage_key));
      expect(u.dating_profile.selectedPhotos).toEqual(own.map((p) => p.id));
      expect(u.now_profile.selectedPhotos).toEqual(own.map((p) => p.id));
      expect(new Set(own.map((p) => p.storage_key)).size).toBe(own.length);
      for (const p of own) {
        expect(p.storage_key).toMatch(new RegExp(`^photos/${u.id}/portrait-\\d+-\\d\\.webp$`));
        const data = await bytesOf(storage, p.storage_key);
        expect(data?.length).toBe(p.bytes);
        const meta = await sharp(data!).metadata();
        expect(meta).toMatchObject({ format: 'webp', width: p.width, height: p.height });
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        const thumb = await bytesOf(storage, thumbnailKey(p.storage_key));
        expect(await sharp(thumb!).metadata()).toMatchObject({ width: PHOTO_THUMB.width, height: PHOTO_THUMB.height });
      }
      // The first photo (the grid's) shows his eyes: never sunglasses.
      const [, face, variant] = own[0]!.storage_key.match(/portrait-(\d+)-(\d)\.webp$/)!;
      expect(lookOf(faceOf(Number(face)), Number(variant)).sunglasses).toBe(false);
      firstFaces.add(face!);
      expect(
        missingProfileFields({
          ...u,
          displayName: u.display_name,
          photos: own,
          nowProfile: u.now_profile,
          datingProfile: u.dating_profile,
        }),
      ).toEqual([]);
    }
    // The first men of a world all have faces of their own.
    expect(firstFaces.size).toBe(COUNT);

    // About half visible in Hookup mode; some in it now (their location too), half of those cruising.
    const inNowShare = men.filter((u) => u.mode_visibility.showInNow).length / COUNT;
    expect(inNowShare).toBeGreaterThanOrEqual(0.35);
    expect(inNowShare).toBeLessThanOrEqual(0.75);
    const nowMen = men.filter((u) => u.current_mode === 'now');
    expect(nowMen.length).toBeGreaterThanOrEqual(2);
    expect(nowMen.every((u) => u.mode_visibility.showInNow)).toBe(true);
    expect(nowMen.some((u) => u.right_now_enabled && u.now_profile.rightNow)).toBe(true);
    const nowLocations = await t().db.selectFrom('user_locations').select('user_id').where('mode', '=', 'now').execute();
    expect(nowLocations.map((l) => l.user_id).sort()).toEqual(nowMen.map((u) => u.id));
    const sessions = await t().db.selectFrom('cruise_sessions').selectAll().execute();
    expect(sessions.length).toBeGreaterThanOrEqual(1);
    expect(sessions.length).toBe(first.world.cruising);
    for (const s of sessions) {
      expect(nowMen.map((u) => u.id)).toContain(s.user_id);
      expect(s.ended_at).toBeNull();
      expect(s.ends_at.getTime()).toBe(now.getTime() + 30 * MINUTE);
    }
    // Some online and seen a moment ago; the others seen earlier.
    const online = men.filter((u) => u.is_online);
    expect(online.length).toBeGreaterThanOrEqual(2);
    expect(online.length).toBeLessThan(COUNT);
    expect(online.every((u) => now.getTime() - u.last_seen!.getTime() < 5 * MINUTE)).toBe(true);
    expect(men.filter((u) => !u.is_online).every((u) => now.getTime() - u.last_seen!.getTime() > 30 * MINUTE)).toBe(true);
    expect(first.world).toEqual({
      men: COUNT,
      showInNow: men.filter((u) => u.mode_visibility.showInNow).length,
      inNow: nowMen.length,
      online: online.length,
      cruising: sessions.length,
    });
  });

  it('makes a demo viewer whom the nearest men have picked: sign in, see them, pick one back, match', async () => {
    expect(first.viewer).toMatchObject({ id: DEMO_VIEWER.id, email: DEMO_VIEWER.email, created: true });
    const viewer = await t().db.selectFrom('users').selectAll().where('id', '=', DEMO_VIEWER.id).executeTakeFirstOrThrow();
    expect(viewer).toMatchObject({ email: DEMO_VIEWER.email, subscription_tier: 'premium', onboarding_complete: true });
    expect(isAnonymousId(viewer.anonymous_id)).toBe(true);
    expect(first.viewer!.likedBy).toHaveLength(VIEWER_LIKERS);
    const picks = await t()
      .db.selectFrom('selections')
      .select(['chooser_id', 'action'])
      .where('target_id', '=', DEMO_VIEWER.id)
      .orderBy('chooser_id')
      .execute();
    expect(picks).toEqual(
      first
        .viewer!.likedBy.map((l) => ({ chooser_id: l.id, action: l.action }))
        .sort((a, b) => a.chooser_id.localeCompare(b.chooser_id)),
    );
    expect(new Set(picks.map((p) => p.action))).toEqual(new Set(['fuck', 'marry']));

    // The viewer signs in through the real route; Likes names who picked him (he is Premium).
    const me = await bearer(DEMO_VIEWER.email);
    expect((await login(DEMO_VIEWER.email, 'wrong-password')).statusCode).toBe(401);
    const likes = (await t().app.inject({ method: 'GET', url: '/api/v1/likes', headers: me })).json() as {
      count: number;
      redacted: boolean;
      items: { user: { uid: string; displayName: string } | null; action: string }[];
    };
    expect(likes).toMatchObject({ count: VIEWER_LIKERS, redacted: false });
    expect(likes.items.map((i) => i.user?.uid).sort()).toEqual(first.viewer!.likedBy.map((l) => l.id).sort());

    // His grid is full (he has a location), and cruising men are listed nearby.
    const grid = (await t().app.inject({ method: 'GET', url: '/api/v1/grid', headers: me })).json() as {
      hasLocation: boolean;
      items: { uid: string }[];
    };
    expect(grid.hasLocation).toBe(true);
    expect(grid.items.length).toBeGreaterThanOrEqual(20);
    const nearby = (await t().app.inject({ method: 'GET', url: '/api/v1/cruise/nearby?radiusKm=50', headers: me })).json() as {
      items: { uid: string }[];
    };
    expect(nearby.items.length).toBe(first.world.cruising);

    // Picking one back is the match moment.
    const liker = first.viewer!.likedBy[0]!;
    const back = await t().app.inject({
      method: 'POST',
      url: '/api/v1/selections',
      headers: me,
      payload: { targetId: liker.id, action: 'marry', clientId: 'viewer-picks-back-1' },
    });
    expect(back.statusCode).toBe(200);
    expect((back.json() as { match: { users: string[] } | null }).match?.users.sort()).toEqual([DEMO_VIEWER.id, liker.id].sort());
  });

  it('lets a demo man sign in to play the other side, and shows Hookup mode to a man in it', async () => {
    const liker = first.viewer!.likedBy[0]!;
    const him = await bearer(liker.email);
    const matches = (await t().app.inject({ method: 'GET', url: '/api/v1/matches', headers: him })).json() as {
      users: string[];
    }[];
    expect(matches.some((m) => m.users.includes(DEMO_VIEWER.id))).toBe(true);

    const nowMan = await t()
      .db.selectFrom('users')
      .select(['id', 'email'])
      .where('current_mode', '=', 'now')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const grid = (await t().app.inject({ method: 'GET', url: '/api/v1/grid', headers: await bearer(nowMan.email) })).json() as {
      items: { uid: string }[];
    };
    const shown = await t()
      .db.selectFrom('users')
      .select(['id', 'mode_visibility'])
      .where(
        'id',
        'in',
        grid.items.map((i) => i.uid),
      )
      .execute();
    expect(shown.length).toBeGreaterThanOrEqual(5);
    expect(shown.every((u) => u.mode_visibility.showInNow)).toBe(true);
  });

  it('adds nothing twice when run again, refreshes the cruise sessions, and reads portraits from the cache', async () => {
    const before = {
      users: await count(t().db, 'users'),
      photos: await count(t().db, 'photos'),
      settings: await count(t().db, 'user_settings'),
      mappings: await count(t().db, 'identity_mappings'),
      selections: await count(t().db, 'selections'),
      files: filesUnder(t().config.filesDir),
    };
    const usage = async () =>
      Number(
        (
          await t()
            .db.selectFrom('prompts')
            .select((eb) => eb.fn.sum<number>('usage_count').as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const promptUses = await usage();

    // 31 minutes on: the first sessions are over; a rerun starts them again.
    t().clock.advance(31 * MINUTE);
    const fresh = new PortraitPool(cacheDir);
    const again = await seedDemoUsers(t().db, storage, { ...OPTS, portraits: fresh }, t().clock.now());
    expect(again).toMatchObject({ created: 0, existing: COUNT, portraitsRendered: 0, homes: first.homes });
    expect(again.viewer).toMatchObject({ created: false, likedBy: first.viewer!.likedBy });
    expect(again.world).toEqual(first.world);
    expect({
      users: await count(t().db, 'users'),
      photos: await count(t().db, 'photos'),
      settings: await count(t().db, 'user_settings'),
      mappings: await count(t().db, 'identity_mappings'),
      selections: await count(t().db, 'selections'),
      files: filesUnder(t().config.filesDir),
    }).toEqual(before);
    expect(await usage()).toBe(promptUses);
    const sessions = await t().db.selectFrom('cruise_sessions').selectAll().execute();
    expect(sessions.filter((s) => s.ended_at === null)).toHaveLength(first.world.cruising);
    expect(sessions.filter((s) => s.end_reason === 'expired')).toHaveLength(first.world.cruising);
    t().clock.advance(-31 * MINUTE);
  });

  it('gives the same world for the same seed, another for another, and no sign-in without a password', async () => {
    const fresh = await openTestDatabase(kind);
    const dir = mkdtempSync(path.join(tmpdir(), 'fmk-seed-'));
    try {
      const other = new LocalDiskStorage(dir);
      const now = t().clock.now();
      const r = await seedDemoUsers(fresh.db, other, { ...OPTS, password: null, portraits }, now);
      expect(r.viewer).toBeNull();
      const profile = (db: Db) =>
        db
          .selectFrom('users')
          .select([
            'id',
            'display_name',
            'anonymous_id',
            'age',
            'bio',
            'photo_url',
            'current_mode',
            'mode_visibility',
            'is_online',
          ])
          .where('id', 'like', 'demo-0%')
          .orderBy('id')
          .execute();
      expect(await profile(fresh.db)).toEqual(await profile(t().db));
      const men = await fresh.db.selectFrom('users').select(['id', 'password_hash']).execute();
      expect(men).toHaveLength(COUNT);
      expect(men.every((u) => u.password_hash === null)).toBe(true);

      await seedDemoUsers(fresh.db, other, { ...OPTS, count: COUNT + 3, seed: 8, password: null, portraits }, now);
      const added = await fresh.db.selectFrom('users').select('id').where('id', '>', `demo-00${COUNT}`).execute();
      expect(added).toHaveLength(3);
    } finally {
      await fresh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown city', async () => {
    await expect(seedDemoUsers(t().db, storage, { count: 1, city: 'Atlantis', seed: 1 })).rejects.toThrow(/Unknown SEED_CITY/);
  });
});
