import type { Me, Photo } from '@fmk/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { thumbnailURL } from '../../platform/media/files.ts';

type Headers = { authorization: string };

/** A JPEG carrying camera and GPS EXIF (IFD3 is the GPS directory in libvips). */
function jpegWithGps(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Spy 3000' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 46/1 30/1', GPSLongitudeRef: 'W', GPSLongitude: '122/1 25/1 10/1' },
    })
    .toBuffer();
}
const smallJpeg = (colour = '#36c') =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

/** True when a TIFF-structured EXIF block has a GPS IFD pointer (tag 0x8825) in IFD0. */
function hasGpsPointer(exif: Buffer): boolean {
  const tiff = exif.subarray(6);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd0 = u32(4);
  for (let i = 0; i < u16(ifd0); i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

describe.each(DB_KINDS)('photos on %s', (kind) => {
  const t = useTestApp(kind);

  const upload = (headers: Headers, data: Buffer, opts: Parameters<typeof multipartFile>[1] = {}) => {
    const form = multipartFile(data, opts);
    return t().app.inject({
      method: 'POST',
      url: '/api/v1/me/photos',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
  };
  const me = async (headers: Headers) => (await t().app.inject({ method: 'GET', url: '/api/v1/me', headers })).json() as Me;
  const photoRows = (userId: string) => t().db.selectFrom('photos').selectAll().where('user_id', '=', userId).execute();
  const setTier = (userId: string, tier: 'free' | 'premium' | 'platinum') =>
    t().db.updateTable('users').set({ subscription_tier: tier, has_lifetime_premium: false }).where('id', '=', userId).execute();
  const storedFiles = async (userId: string) => {
    const { readdir } = await import('node:fs/promises');
    return readdir(`${t().config.dataDir}/files/photos/${userId}`).catch(() => [] as string[]);
  };

  it('requires authentication', async () => {
    const res = await upload({ authorization: '' }, await smallJpeg());
    expect(res.statusCode).toBe(401);
  });

  it('re-encodes a JPEG to WebP and strips its EXIF and GPS', async () => {
    const { headers, user } = await signUp(t().app);
    const input = await jpegWithGps();
    const inMeta = await sharp(input).metadata();
    expect(inMeta.exif && hasGpsPointer(inMeta.exif)).toBe(true);
    expect(inMeta.exif?.toString('latin1')).toContain('TestCam');

    const res = await upload(headers, input);
    expect(res.statusCode).toBe(201);
    const photo = res.json() as Photo;
    expect(photo).toMatchObject({ width: 800, height: 600 });
    expect(photo.url).toMatch(new RegExp(`^/files/photos/${user.uid}/[0-9a-f-]{36}\\.webp$`));

    const file = await t().app.inject({ method: 'GET', url: photo.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(file.rawPayload.includes('TestCam')).toBe(false);
    expect([meta.width, meta.height]).toEqual([800, 600]);

    const mine = await me(headers);
    expect(mine.photos).toEqual([photo]);
    expect(mine.photoURL).toBe(photo.url);
  });

  it("serves a profile photo's grid thumbnail, made once on first request, and removes it with the photo", async () => {
    const { headers, user } = await signUp(t().app);
    const photo = (await upload(headers, await jpegWithGps(1200, 900))).json() as Photo;
    const thumbUrl = photo.url.replace(/\.webp$/, '.t.webp');
    // Asked for by many cells at once: one thumbnail, the same bytes for all.
    const first = await Promise.all([1, 2, 3].map(() => t().app.inject({ method: 'GET', url: thumbUrl })));
    for (const r of first) {
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('image/webp');
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.rawPayload.equals(first[0]!.rawPayload)).toBe(true);
    }
    const meta = await sharp(first[0]!.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 400]);
    expect(meta.exif).toBeUndefined();
    expect(first[0]!.rawPayload.length).toBeLessThan((await t().app.inject({ method: 'GET', url: photo.url })).rawPayload.length);
    expect((await storedFiles(user.uid)).filter((f) => f.endsWith('.t.webp'))).toHaveLength(1);
    // Served from storage the next time.
    const again = await t().app.inject({ method: 'GET', url: thumbUrl });
    expect(again.rawPayload.equals(first[0]!.rawPayload)).toBe(true);

    const del = await t().app.inject({ method: 'DELETE', url: `/api/v1/me/photos/${photo.id}`, headers });
    expect(del.statusCode).toBeLessThan(300);
    expect((await t().app.inject({ method: 'GET', url: thumbUrl })).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'GET', url: photo.url })).statusCode).toBe(404);
    expect(await storedFiles(user.uid)).toEqual([]);
    // No thumbnail of a photo that does not exist, nor of a message photo.
    expect((await t().app.inject({ method: 'GET', url: `/files/photos/${user.uid}/nope.t.webp` })).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'GET', url: '/files/photos/messages/x/y.t.webp' })).statusCode).toBe(404);
  });

  it('applies EXIF orientation and shrinks large photos to fit 1600 px', async () => {
    const { headers } = await signUp(t().app);
    // 3000x1000 landscape stored with orientation 6 (rotate 90° clockwise to view).
    const raw = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#0a0' } })
      .jpeg()
      .toBuffer();
    const rotated = await sharp(raw).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const res = await upload(headers, rotated);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ width: 533, height: 1600 });
  });

  it('refuses files that are not images, with nothing stored', async () => {
    const { headers, user } = await signUp(t().app);
    const text = await upload(headers, Buffer.from('this is not really a jpeg\n'.repeat(50)), {
      filename: 'x.jpg',
      contentType: 'image/jpeg',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe('Photos must be JPEG, PNG, WebP, GIF, HEIC or AVIF images.');
    const svg = await upload(headers, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), {
      filename: 'x.png',
    });
    expect(svg.statusCode).toBe(400);
    expect(svg.json().message).toBe('Photos must be JPEG, PNG, WebP, GIF, HEIC or AVIF images.');
    const jpeg = await smallJpeg();
    const truncated = await upload(headers, jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().message).toBe('That file is not an image we can read.');
    const wrongField = await upload(headers, jpeg, { field: 'photo' });
    expect(wrongField.statusCode).toBe(400);
    const notMultipart = await t().app.inject({ method: 'POST', url: '/api/v1/me/photos', headers, payload: { file: 'x' } });
    expect(notMultipart.statusCode).toBe(400);
    expect(await photoRows(user.uid)).toHaveLength(0);
    expect(await storedFiles(user.uid)).toHaveLength(0);
  });

  it('refuses photos over 15 MB with 413', async () => {
    const { headers, user } = await signUp(t().app);
    const big = Buffer.alloc(16 * 1024 * 1024, 0xff);
    (await smallJpeg()).copy(big);
    const res = await upload(headers, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Photos must be smaller than 15 MB.');
    expect(await photoRows(user.uid)).toHaveLength(0);
  });

  it('holds a free user to 3 photos with the Premium upgrade text, premium to 8', async () => {
    const { headers, user } = await signUp(t().app);
    await setTier(user.uid, 'free');
    for (let i = 0; i < 3; i++) expect((await upload(headers, await smallJpeg())).statusCode).toBe(201);
    const fourth = await upload(headers, await smallJpeg());
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toEqual({
      error: 'limit_reached',
      message: 'You can have up to 3 photos on your plan. Add more photos with Premium membership...',
    });
    expect(await photoRows(user.uid)).toHaveLength(3);
    expect(await storedFiles(user.uid)).toHaveLength(3);

    await setTier(user.uid, 'premium');
    for (let i = 3; i < 8; i++) expect((await upload(headers, await smallJpeg())).statusCode).toBe(201);
    const ninth = await upload(headers, await smallJpeg());
    expect(ninth.statusCode).toBe(403);
    expect(ninth.json().message).toMatch(/up to 8 photos.*Platinum/);
    expect(await photoRows(user.uid)).toHaveLength(8);
  });

  it('holds platinum to 20 photos (no higher plan to name)', async () => {
    const { headers, user } = await signUp(t().app);
    await setTier(user.uid, 'platinum');
    const jpeg = await smallJpeg('#939');
    for (let i = 0; i < 20; i++) expect((await upload(headers, jpeg)).statusCode, `photo ${i + 1}`).toBe(201);
    const over = await upload(headers, jpeg);
    expect(over.statusCode).toBe(403);
    expect(over.json()).toEqual({ error: 'limit_reached', message: 'You can have up to 20 photos.' });
    expect(await photoRows(user.uid)).toHaveLength(20);
  });

  it('gives a beta user with lifetime premium the premium limit even on the free tier', async () => {
    const { headers, user } = await signUp(t().app); // localhost sign-ups are beta users
    expect(user).toMatchObject({ isBetaUser: true, hasLifetimePremium: true });
    await t().db.updateTable('users').set({ subscription_tier: 'free' }).where('id', '=', user.uid).execute();
    const jpeg = await smallJpeg('#393');
    for (let i = 0; i < 8; i++) expect((await upload(headers, jpeg)).statusCode).toBe(201);
    const ninth = await upload(headers, jpeg);
    expect(ninth.statusCode).toBe(403);
    expect(ninth.json()).toEqual({
      error: 'limit_reached',
      message: 'You can have up to 8 photos on your plan. Add more photos with Platinum membership...',
    });
  });

  it('keeps the limit under concurrent uploads', async () => {
    const { headers, user } = await signUp(t().app);
    await setTier(user.uid, 'free');
    const jpeg = await smallJpeg();
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(headers, jpeg)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 403, 403, 403]);
    expect(await photoRows(user.uid)).toHaveLength(3);
    expect(await storedFiles(user.uid)).toHaveLength(3);
  });

  it('deletes own photos only, and removes the file', async () => {
    const a = await signUp(t().app);
    const b = await signUp(t().app);
    const pa = (await upload(a.headers, await smallJpeg())).json() as Photo;
    const pa2 = (await upload(a.headers, await smallJpeg('#a36'))).json() as Photo;
    await t().app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: a.headers,
      payload: { datingProfile: { selectedPhotos: [pa.id, pa2.id] } },
    });

    const theft = await t().app.inject({ method: 'DELETE', url: `/api/v1/me/photos/${pa.id}`, headers: b.headers });
    expect(theft.statusCode).toBe(404);
    expect((await me(a.headers)).photos).toHaveLength(2);

    const del = await t().app.inject({ method: 'DELETE', url: `/api/v1/me/photos/${pa.id}`, headers: a.headers });
    expect(del.statusCode).toBe(204);
    const after = await me(a.headers);
    expect(after.photos.map((p) => p.id)).toEqual([pa2.id]);
    expect(after.photoURL).toBe(pa2.url);
    expect(after.datingProfile.selectedPhotos).toEqual([pa2.id]);
    expect((await t().app.inject({ method: 'GET', url: pa.url })).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'DELETE', url: `/api/v1/me/photos/${pa.id}`, headers: a.headers })).statusCode).toBe(
      404,
    );
  });

  it('reorders photos given a permutation, and refuses anything else', async () => {
    const { headers, user } = await signUp(t().app);
    await setTier(user.uid, 'premium');
    const ids: string[] = [];
    for (const c of ['#111', '#222', '#333']) ids.push(((await upload(headers, await smallJpeg(c))).json() as Photo).id);
    const order = (photoIds: unknown) =>
      t().app.inject({ method: 'PUT', url: '/api/v1/me/photos/order', headers, payload: { photoIds } });

    const res = await order([ids[2], ids[0], ids[1]]);
    expect(res.statusCode).toBe(200);
    const reordered = res.json() as Me;
    expect(reordered.photos.map((p) => p.id)).toEqual([ids[2], ids[0], ids[1]]);
    expect(reordered.photoURL).toBe(reordered.photos[0]!.url);
    const row = await t().db.selectFrom('users').select('photo_url').where('id', '=', user.uid).executeTakeFirstOrThrow();
    expect(row.photo_url).toBe(reordered.photos[0]!.url);

    for (const bad of [[ids[0], ids[1]], [ids[0], ids[0], ids[1]], [ids[0], ids[1], 'other'], 'nope']) {
      const r = await order(bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await me(headers)).photos.map((p) => p.id)).toEqual([ids[2], ids[0], ids[1]]);
  });

  it('answers unknown or unsafe file paths with 404', async () => {
    for (const url of ['/files/photos/nobody/none.webp', '/files/secrets.json', '/files/photos/../../secrets.json', '/files/']) {
      const res = await t().app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe('thumbnail URLs (grid cells and every list of men)', () => {
  it('turns our profile photos into their thumbnail and leaves every other URL alone', () => {
    expect(thumbnailURL('/files/photos/u1/p1.webp')).toBe('/files/photos/u1/p1.t.webp');
    expect(thumbnailURL('/files/photos/u1/p1.t.webp')).toBe('/files/photos/u1/p1.t.webp');
    expect(thumbnailURL('/files/photos/messages/u1/p1.webp')).toBe('/files/photos/messages/u1/p1.webp');
    expect(thumbnailURL('https://lh3.example.com/a.webp')).toBe('https://lh3.example.com/a.webp');
    expect(thumbnailURL(null)).toBeNull();
  });
});
