import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ActivityLog, ActivityStats, Contact } from '@fmk/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { signUp, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, type TestApp, useTestApp } from '../../../test/harness.ts';
import { multipartFile } from '../../../test/multipart.ts';

type User = Awaited<ReturnType<typeof signUp>>;
const call = (t: TestApp, u: User, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });

describe.each(DB_KINDS)('activity on %s', (kind) => {
  const t = useTestApp(kind);

  it('contacts: add, edit, delete; their figures stay true to the log', async () => {
    // A linked contact is another member: both finished onboarding (core's contact.link).
    const u = await signUpMember(t().app, t().db);
    const linked = await signUpMember(t().app, t().db);
    // The server refuses a link to someone who is neither a match nor a conversation partner.
    const stranger = await call(t(), u, 'POST', '/activity/contacts', { name: 'Sam', userId: linked.user.uid });
    expect(stranger.statusCode).toBe(400);
    const [a, b] = [u.user.uid, linked.user.uid].sort() as [string, string];
    await t()
      .db.insertInto('matches')
      .values({
        id: `m-${a}-${b}`,
        user_a: a,
        user_b: b,
        match_type: 'mixed',
        user_actions: JSON.stringify({ [a]: 'fuck', [b]: 'marry' }),
        created_at: t().clock.now(),
        matched_at: t().clock.now(),
      })
      .execute();
    const res = await call(t(), u, 'POST', '/activity/contacts', {
      name: 'Sam',
      nickname: 'S',
      age: 31,
      userId: linked.user.uid,
      phoneNumber: '+44 7700 900123',
      notes: 'Gym',
      tags: ['regular', 'top'],
    });
    expect(res.statusCode).toBe(201);
    const sam = res.json() as Contact;
    expect(sam).toMatchObject({
      name: 'Sam',
      age: 31,
      userId: linked.user.uid,
      totalActivities: 0,
      lastActivity: null,
      avgRating: null,
    });
    const alex = (await call(t(), u, 'POST', '/activity/contacts', { name: 'Alex' })).json() as Contact;

    const first = (
      await call(t(), u, 'POST', '/activity/logs', { date: '2026-05-20', partners: [sam.id], rating: 3, protection: 'protected' })
    ).json() as ActivityLog;
    await call(t(), u, 'POST', '/activity/logs', {
      date: '2026-05-28',
      partners: [sam.id, alex.id],
      rating: 5,
      protection: 'protected',
    });
    let contacts = (await call(t(), u, 'GET', '/activity/contacts')).json() as Contact[];
    expect(contacts.find((c) => c.id === sam.id)).toMatchObject({ totalActivities: 2, lastActivity: '2026-05-28', avgRating: 4 });

    // Editing and deleting log entries moves the figures with them.
    await call(t(), u, 'PATCH', `/activity/logs/${first.id}`, { rating: 1 });
    contacts = (await call(t(), u, 'GET', '/activity/contacts')).json() as Contact[];
    expect(contacts.find((c) => c.id === sam.id)?.avgRating).toBe(3);
    await call(t(), u, 'DELETE', `/activity/logs/${first.id}`);
    contacts = (await call(t(), u, 'GET', '/activity/contacts')).json() as Contact[];
    expect(contacts.find((c) => c.id === sam.id)).toMatchObject({ totalActivities: 1, avgRating: 5 });

    const edited = await call(t(), u, 'PATCH', `/activity/contacts/${sam.id}`, { nickname: null, tags: ['bottom'] });
    expect(edited.json()).toMatchObject({ name: 'Sam', nickname: null, tags: ['bottom'], totalActivities: 1 });
    expect((await call(t(), u, 'DELETE', `/activity/contacts/${alex.id}`)).statusCode).toBe(204);
    expect(((await call(t(), u, 'GET', '/activity/contacts')).json() as Contact[]).map((c) => c.name)).toEqual(['Sam']);
  });

  it("a contact's photo: re-encoded without metadata, sealed at rest, served to its owner only", async () => {
    const u = await signUp(t().app);
    const other = await signUp(t().app);
    const sam = (await call(t(), u, 'POST', '/activity/contacts', { name: 'Sam' })).json() as Contact;
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'where-he-lives' } })
      .toBuffer();
    const upload = (who: User, id: string, data = jpeg) => {
      const form = multipartFile(data);
      return t().app.inject({
        method: 'POST',
        url: `/api/v1/activity/contacts/${id}/photo`,
        headers: { ...who.headers, ...form.headers },
        payload: form.payload,
      });
    };

    const res = await upload(u, sam.id);
    expect(res.statusCode, res.body).toBe(200);
    const withPhoto = res.json() as Contact;
    expect(withPhoto.photoURL).toMatch(new RegExp(`^/api/v1/activity/contacts/${sam.id}/photo\\?v=\\w+$`));
    expect(res.json()).not.toHaveProperty('photoKey');
    expect(((await call(t(), u, 'GET', '/activity/contacts')).json() as Contact[])[0]?.photoURL).toBe(withPhoto.photoURL);

    const mine = await call(t(), u, 'GET', `/activity/contacts/${sam.id}/photo`);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/webp');
    expect(mine.headers['cache-control']).toBe('no-store');
    const meta = await sharp(mine.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });
    expect(meta.exif).toBeUndefined();

    // Another user, no token, the public file route: nothing.
    expect((await call(t(), other, 'GET', `/activity/contacts/${sam.id}/photo`)).statusCode).toBe(404);
    expect((await upload(other, sam.id)).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'GET', url: `/api/v1/activity/contacts/${sam.id}/photo` })).statusCode).toBe(401);
    const dir = path.join(t().config.dataDir, 'files', 'private', 'contacts', u.user.uid);
    const [file] = readdirSync(dir);
    expect(file).toMatch(/\.bin$/);
    expect((await t().app.inject({ method: 'GET', url: `/files/private/contacts/${u.user.uid}/${file}` })).statusCode).toBe(404);
    // At rest the file is sealed, not a WebP anyone with the disk could open.
    expect(readFileSync(path.join(dir, file!)).subarray(8, 12).toString('latin1')).not.toBe('WEBP');

    const bad = await upload(u, sam.id, Buffer.from('not an image at all'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/photo/i);

    // Removing the photo (photoURL null) or the contact removes the file.
    await upload(u, sam.id);
    expect(readdirSync(dir)).toHaveLength(1);
    expect((await call(t(), u, 'PATCH', `/activity/contacts/${sam.id}`, { photoURL: null })).json()).toMatchObject({
      photoURL: null,
    });
    expect(readdirSync(dir)).toHaveLength(0);
    expect((await call(t(), u, 'GET', `/activity/contacts/${sam.id}/photo`)).statusCode).toBe(404);
    await upload(u, sam.id);
    await call(t(), u, 'DELETE', `/activity/contacts/${sam.id}`);
    expect(readdirSync(dir)).toHaveLength(0);
  });

  it('validates: 400 with a clear message, never a 500', async () => {
    const u = await signUp(t().app);
    const cases: Array<[string, object, string]> = [
      ['/activity/contacts', { name: '' }, 'Enter a name.'],
      ['/activity/contacts', { name: 'Kid', age: 17 }, 'Contacts must be 18 or older.'],
      ['/activity/contacts', { name: 'X', userId: 'nobody-here' }, 'There is no FMK user with that id.'],
      ['/activity/contacts', { name: 'X', phoneNumber: 'call me' }, 'Enter a phone number with digits only.'],
      ['/activity/logs', { date: 'yesterday', protection: 'protected' }, 'Use a date like 2026-01-31.'],
      ['/activity/logs', { date: '2026-05-01', protection: 'maybe' }, 'Choose protected, unprotected or not applicable.'],
      ['/activity/logs', { date: '2026-05-01', protection: 'protected', rating: 6 }, 'Rate from 1 to 5.'],
      ['/activity/logs', { date: '2026-05-01', protection: 'protected', duration: 0 }, 'Use between 1 and 1440 minutes.'],
      [
        '/activity/logs',
        { date: '2026-05-01', protection: 'protected', partners: ['not-a-contact'] },
        'Choose partners from your contacts.',
      ],
    ];
    for (const [url, body, message] of cases) {
      const res = await call(t(), u, 'POST', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await call(t(), u, 'GET', '/activity/logs')).json()).toEqual([]);
    expect((await call(t(), u, 'PATCH', '/activity/logs/nope', { rating: 2 })).statusCode).toBe(404);
  });

  it('the log is date descending and the stats follow spec section 9', async () => {
    t().clock.set('2026-06-10T12:00:00Z');
    const u = await signUp(t().app);
    const empty = (await call(t(), u, 'GET', '/activity/stats')).json() as ActivityStats;
    expect(empty).toMatchObject({ totalActivities: 0, favoriteActivity: 'None', favoriteLocation: 'None', averageRating: 0 });
    const a = (await call(t(), u, 'POST', '/activity/contacts', { name: 'A' })).json() as Contact;
    const b = (await call(t(), u, 'POST', '/activity/contacts', { name: 'B' })).json() as Contact;
    const entries = [
      {
        date: '2026-06-09',
        partners: [a.id],
        location: 'Home',
        activities: ['Kissing', 'Oral (giving)'],
        rating: 5,
        protection: 'protected',
      },
      {
        date: '2026-06-01',
        partners: [a.id, b.id],
        location: 'Hotel',
        activities: ['Kissing'],
        rating: 4,
        protection: 'unprotected',
      },
      {
        date: '2026-05-25',
        partners: [b.id],
        location: 'Home',
        activities: ['Massage'],
        rating: 2,
        protection: 'not-applicable',
        duration: 60,
      },
    ];
    for (const e of [entries[1], entries[2], entries[0]])
      expect((await call(t(), u, 'POST', '/activity/logs', e!)).statusCode).toBe(201);
    const logs = (await call(t(), u, 'GET', '/activity/logs')).json() as ActivityLog[];
    expect(logs.map((l) => l.date)).toEqual(['2026-06-09', '2026-06-01', '2026-05-25']);
    expect(logs[2]).toMatchObject({ duration: 60, protection: 'not-applicable', notes: null });
    const stats = (await call(t(), u, 'GET', '/activity/stats')).json() as ActivityStats;
    expect(stats).toEqual({
      totalActivities: 3,
      uniquePartners: 2,
      averageRating: 3.7,
      favoriteActivity: 'Kissing',
      favoriteLocation: 'Home',
      thisMonth: 2,
      thisWeek: 1,
    });
    t().clock.set('2026-06-01T12:00:00Z');
  });

  it('is refused while activity tracking is off', async () => {
    const u = await signUp(t().app);
    await call(t(), u, 'PATCH', '/me', { appPreferences: { activityTrackingEnabled: false } });
    for (const url of ['/activity/contacts', '/activity/logs', '/activity/stats']) {
      const res = await call(t(), u, 'GET', url);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Activity tracking is turned off. Turn it on in Settings to use it.');
    }
    expect((await call(t(), u, 'POST', '/activity/contacts', { name: 'A' })).statusCode).toBe(403);
  });
});
