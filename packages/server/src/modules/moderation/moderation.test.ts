import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import type { Me, MessagePage, ModerationPage, PublicProfile } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { subjectOf, unlockProfile } from '../../../test/discovery.ts';
import { makeStaff, signUpMember, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { explicitLookingImage, neutralImage } from '../../../test/moderation-images.ts';
import { multipartFile } from '../../../test/multipart.ts';

type Headers = Record<string, string>;

// The real model scores every upload here. Drawn images never reach the spec's 0.8, so the hold
// threshold is lowered to 0.02 for this file: between the neutral set (≤ 0.005) and the
// explicit-looking one (≥ 0.05), as the scorer's own test shows.
describe.each(DB_KINDS)('photo moderation on %s', (kind) => {
  const t = useTestApp(kind, { env: { MODERATION_HOLD_AT: '0.02' } });
  const call = (method: 'GET' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const upload = async (headers: Headers, data: Buffer) => {
    const form = multipartFile(data);
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/v1/me/photos',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; url: string; inReview?: boolean };
  };
  const me = async (headers: Headers) => (await call('GET', '/me', headers)).json() as Me;
  const view = async (headers: Headers, userId: string) => {
    await unlockProfile(t().db, subjectOf(headers)!, userId, t().clock.now()).catch(() => undefined);
    const res = await call('GET', `/users/${userId}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PublicProfile;
  };
  /** What grid cells, cruise, matches and conversations show: users.photo_url. */
  const avatar = async (userId: string) =>
    (await t().db.selectFrom('users').select('photo_url').where('id', '=', userId).executeTakeFirstOrThrow()).photo_url;
  async function staff() {
    const s = await signUpMember(t().app, t().db);
    await makeStaff(t().db, s.user.uid, 'moderator');
    Object.assign(s.headers, await staffSignIn(t().app, s.user.email, t().clock.now()));
    return s;
  }
  const itemOf = async (headers: Headers, photoId: string) =>
    ((await call('GET', '/admin/moderation/items', headers)).json() as ModerationPage).rows.find((i) => i.contentId === photoId);

  /** An owner with a neutral photo first, then an explicit-looking one the model holds. */
  async function ownerWithHeldPhoto() {
    const owner = await signUpMember(t().app, t().db);
    const neutral = await upload(owner.headers, await neutralImage(0));
    const held = await upload(owner.headers, await explicitLookingImage(1));
    // The upload answered before scoring: the photo is not in review yet.
    expect(held.inReview).toBe(false);
    // The upload does not wait for the model; the test does.
    await t().app.moderation.settle();
    return { owner, neutral, held };
  }

  it('holds an explicit-looking profile photo: its owner sees it in review, nobody else sees it anywhere', async () => {
    const { owner, neutral, held } = await ownerWithHeldPhoto();
    const mine = await me(owner.headers);
    expect(mine.photos.map((p) => [p.id, p.inReview])).toEqual([
      [neutral.id, false],
      [held.id, true],
    ]);
    // His own public view shows it marked; another member's shows only the neutral photo.
    expect((await view(owner.headers, owner.user.uid)).photos.map((p) => p.id)).toEqual([neutral.id, held.id]);
    const other = await signUpMember(t().app, t().db);
    const seen = await view(other.headers, owner.user.uid);
    expect(seen.photos.map((p) => p.id)).toEqual([neutral.id]);
    expect(JSON.stringify(seen)).not.toContain(held.id);
    expect(await avatar(owner.user.uid)).toBe(neutral.url);

    // Made his first photo, the held one still never becomes the avatar others see.
    const reorder = await t().app.inject({
      method: 'PUT',
      url: '/api/v1/me/photos/order',
      headers: owner.headers,
      payload: { photoIds: [held.id, neutral.id] },
    });
    expect(reorder.statusCode).toBe(200);
    expect(await avatar(owner.user.uid)).toBe(neutral.url);

    // The item carries the scores; the neutral photo's item was approved by nobody.
    const s = await staff();
    const item = await itemOf(s.headers, held.id);
    expect(item).toMatchObject({ contentType: 'profile_photo', userId: owner.user.uid, status: 'pending', url: held.url });
    expect(item?.flaggedReason).toContain('nudity');
    expect(item?.aiAnalysis.nudity).toBeGreaterThanOrEqual(0.02);
    expect(item?.aiAnalysis).toMatchObject({ violence: null, hate_speech: 0, spam: 0, underage: 0 });
    expect(await itemOf(s.headers, neutral.id)).toBeUndefined();
    const approved = ((await call('GET', '/admin/moderation/items?status=approved', s.headers)).json() as ModerationPage).rows;
    expect(approved.find((i) => i.contentId === neutral.id)).toMatchObject({ moderatorId: null, flaggedReason: null });
  });

  it('shows a held photo to others once staff approve it', async () => {
    const { owner, neutral, held } = await ownerWithHeldPhoto();
    const s = await staff();
    const item = (await itemOf(s.headers, held.id))!;
    const res = await call('PATCH', `/admin/moderation/items/${item.id}`, s.headers, {
      decision: 'approve',
      notes: 'beach photo',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'approved', moderatorId: s.user.uid, moderatorNotes: 'beach photo' });

    const other = await signUpMember(t().app, t().db);
    expect((await view(other.headers, owner.user.uid)).photos.map((p) => p.id)).toEqual([neutral.id, held.id]);
    expect((await me(owner.headers)).photos.every((p) => p.inReview === false)).toBe(true);
    // Decided once: a second decision is refused and changes nothing.
    const again = await call('PATCH', `/admin/moderation/items/${item.id}`, s.headers, { decision: 'reject' });
    expect(again.statusCode).toBe(409);
    expect((await me(owner.headers)).photos).toHaveLength(2);
  });

  it('removes a rejected photo, its row and its file', async () => {
    const { owner, neutral, held } = await ownerWithHeldPhoto();
    const s = await staff();
    const item = (await itemOf(s.headers, held.id))!;
    const res = await call('PATCH', `/admin/moderation/items/${item.id}`, s.headers, { decision: 'reject' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'rejected', url: null });
    expect((await me(owner.headers)).photos.map((p) => p.id)).toEqual([neutral.id]);
    const files = await readdir(`${t().config.dataDir}/files/photos/${owner.user.uid}`);
    expect(files.some((f) => f.startsWith(held.id))).toBe(false);
    expect(files.some((f) => f.startsWith(neutral.id))).toBe(true);
  });

  it('refuses members the staff routes, and bad decisions, changing nothing', async () => {
    const { owner, held } = await ownerWithHeldPhoto();
    const s = await staff();
    const item = (await itemOf(s.headers, held.id))!;
    for (const [method, url, body] of [
      ['GET', '/admin/moderation/items', undefined],
      ['PATCH', `/admin/moderation/items/${item.id}`, { decision: 'approve' }],
    ] as const) {
      const res = await call(method, url, owner.headers, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'admin_required', message: 'Admin access required' });
    }
    expect((await call('PATCH', `/admin/moderation/items/${item.id}`, s.headers, { decision: 'delete' })).statusCode).toBe(400);
    expect((await call('GET', '/admin/moderation/items?status=done', s.headers)).statusCode).toBe(400);
    const missing = await call('PATCH', '/admin/moderation/items/nope', s.headers, { decision: 'approve' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'Moderation item not found' });
    expect((await itemOf(s.headers, held.id))?.status).toBe('pending');
    expect((await me(owner.headers)).photos.find((p) => p.id === held.id)?.inReview).toBe(true);
  });

  it('marks an explicit-looking chat photo sensitive for its receiver and still delivers it, without queueing it', async () => {
    const [a, b] = [await signUpMember(t().app, t().db), await signUpMember(t().app, t().db)];
    const choose = (from: typeof a, to: typeof a) =>
      t().app.inject({
        method: 'POST',
        url: '/api/v1/selections',
        headers: from.headers,
        payload: { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() },
      });
    expect((await choose(a, b)).statusCode).toBe(200);
    const conversationId = (await choose(b, a)).json().match.conversationId as string;
    const chatPhoto = async (data: Buffer) => {
      const form = multipartFile(data);
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/v1/messages/photos',
        headers: { ...a.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; sensitive?: boolean };
    };
    const plain = await chatPhoto(await neutralImage(2));
    const explicit = await chatPhoto(await explicitLookingImage(4));
    expect(explicit.sensitive).toBe(false);
    await t().app.moderation.settle();
    for (const photo of [plain, explicit]) {
      const sent = await t().app.inject({
        method: 'POST',
        url: `/api/v1/conversations/${conversationId}/messages`,
        headers: a.headers,
        payload: { clientId: randomUUID(), type: 'photo', photoId: photo.id, content: '' },
      });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    const page = (
      await t().app.inject({ method: 'GET', url: `/api/v1/conversations/${conversationId}/messages`, headers: b.headers })
    ).json() as MessagePage;
    const photos = page.messages.map((m) => m.metadata.photo).filter((p) => p !== undefined);
    expect(photos.map((p) => [p.id, p.sensitive])).toEqual(
      expect.arrayContaining([
        [plain.id, false],
        [explicit.id, true],
      ]),
    );
    // Delivered, not queued for staff: the item records the score, approved by nobody.
    const s = await staff();
    expect(await itemOf(s.headers, explicit.id)).toBeUndefined();
    const approved = ((await call('GET', '/admin/moderation/items?status=approved', s.headers)).json() as ModerationPage).rows;
    expect(approved.find((i) => i.contentId === explicit.id)).toMatchObject({
      contentType: 'chat_photo',
      flaggedReason: 'nudity',
      moderatorId: null,
    });
  });
});
