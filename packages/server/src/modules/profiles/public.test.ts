import { type PublicProfile, publicProfileSchema } from '@fmk/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { subjectOf, unlockProfile } from '../../../test/discovery.ts';
import { block, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { LocalDiskStorage } from '../../platform/storage.ts';
import { seedDemoUsers } from '../../seed.ts';

type Headers = Record<string, string>;

describe.each(DB_KINDS)('public profiles on %s', (kind) => {
  const t = useTestApp(kind);
  // These tests are about what a profile shows. The tier's clickable set is proven through the
  // grid (discovery/grid.test.ts), so each view here is first unlocked as the viewer's grid would.
  const view = async (headers: Headers, userId: string) => {
    const viewerId = subjectOf(headers);
    if (viewerId) await unlockProfile(t().db, viewerId, userId, t().clock.now()).catch(() => undefined);
    return t().app.inject({ method: 'GET', url: `/api/v1/users/${encodeURIComponent(userId)}`, headers });
  };
  const patch = (headers: Headers, payload: object) => t().app.inject({ method: 'PATCH', url: '/api/v1/me', headers, payload });
  const visibility = (headers: Headers, modeVisibility: object) => patch(headers, { modeVisibility });

  /** An owner with every section filled in, and a photo. */
  async function fullOwner() {
    const owner = await signUpMember(t().app, t().db);
    const res = await patch(owner.headers, {
      displayName: 'Rio',
      age: 29,
      bio: 'Swimmer and cook.',
      datingProfile: {
        prompts: [
          { promptId: 'starter-2', question: 'x', answer: 'a swim then brunch.' },
          { promptId: 'starter-3', question: 'x', answer: 'old maps.' },
        ],
        relationshipGoals: ['Dating'],
        values: ['Honesty'],
      },
      nowProfile: {
        quickStats: { build: 'Swimmer', height: 178 },
        kinks: ['Kissing'],
        safetyInfo: 'On PrEP.',
        rightNow: 'Coffee?',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const jpeg = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#f44' } })
      .jpeg()
      .toBuffer();
    const form = multipartFile(jpeg);
    const up = await t().app.inject({
      method: 'POST',
      url: '/api/v1/me/photos',
      headers: { ...owner.headers, ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode).toBe(201);
    return owner;
  }

  it("needs authentication: 'Authentication required'", async () => {
    const owner = await signUpMember(t().app, t().db);
    for (const headers of [{}, { authorization: 'Bearer nope' }] as Headers[]) {
      const res = await view(headers, owner.user.uid);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Authentication required');
    }
  });

  it('shows the dating profile by default, never the now profile, email, anonymous id or settings', async () => {
    const owner = await fullOwner();
    const viewer = await signUpMember(t().app, t().db);
    const res = await view(viewer.headers, owner.user.uid);
    expect(res.statusCode).toBe(200);
    const p = publicProfileSchema.parse(res.json());
    expect(p).toMatchObject({
      uid: owner.user.uid,
      isMe: false,
      isDemo: false,
      displayName: 'Rio',
      age: 29,
      bio: 'Swimmer and cook.',
      currentMode: 'dating',
      distance: null,
      isOnline: false,
      lastSeen: null,
      now: null,
    });
    expect(p.photos).toHaveLength(1);
    expect(p.dating).toEqual({
      prompts: [
        {
          promptId: 'starter-2',
          question: 'My ideal Sunday looks like...',
          answer: 'a swim then brunch.',
          likeCount: 0,
          likedByMe: false,
        },
        { promptId: 'starter-3', question: 'I geek out on...', answer: 'old maps.', likeCount: 0, likedByMe: false },
      ],
      relationshipGoals: ['Dating'],
      lookingFor: [],
      interests: [],
      values: ['Honesty'],
      dealBreakers: [],
      lifestyle: [],
    });
    // Privacy: the exact keys, and nothing that looks like an email anywhere.
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(publicProfileSchema.shape).sort());
    expect(res.body).not.toMatch(/"email"/i);
    expect(res.body).not.toContain('@');
    expect(res.body).not.toContain(owner.user.anonymousId);
    expect(res.body).not.toMatch(/anonymous|latitude|longitude|settings|password/i);
  });

  it("follows the owner's modeVisibility for each section", async () => {
    const owner = await fullOwner();
    const viewer = await signUpMember(t().app, t().db);
    const sections = async () => {
      const p = (await view(viewer.headers, owner.user.uid)).json() as PublicProfile;
      return { dating: p.dating !== null, now: p.now !== null };
    };
    await visibility(owner.headers, { showInNow: true });
    // Shown in now, but only to matches (nowVisibleToAll false), and the viewer is no match.
    expect(await sections()).toEqual({ dating: true, now: false });
    await visibility(owner.headers, { nowVisibleToAll: true });
    expect(await sections()).toEqual({ dating: true, now: true });
    const p = (await view(viewer.headers, owner.user.uid)).json() as PublicProfile;
    expect(p.now).toEqual({
      quickStats: { build: 'Swimmer', height: 178 },
      position: 'Vers',
      lookingFor: [],
      availability: 'offline',
      rightNow: 'Coffee?',
      aboutMe: '',
      tribes: [],
      kinks: ['Kissing'],
      safetyInfo: 'On PrEP.',
    });
    await visibility(owner.headers, { datingVisibleToAll: false });
    expect(await sections()).toEqual({ dating: false, now: true });
    await visibility(owner.headers, { showInDating: false, datingVisibleToAll: true, showInNow: false });
    expect(await sections()).toEqual({ dating: false, now: false });
    // The owner always sees their whole profile.
    const self = (await view(owner.headers, owner.user.uid)).json() as PublicProfile;
    expect(self.isMe).toBe(true);
    expect(self.dating).not.toBeNull();
    expect(self.now).not.toBeNull();
  });

  it('shows a match what the owner keeps for matches, and nothing when he hides both from matches', async () => {
    const owner = await fullOwner();
    const match = await signUpMember(t().app, t().db);
    const stranger = await signUpMember(t().app, t().db);
    const choose = (from: Headers, targetId: string) =>
      t().app.inject({
        method: 'POST',
        url: '/api/v1/selections',
        headers: from,
        payload: { targetId, action: 'marry', clientId: crypto.randomUUID() },
      });
    expect((await choose(owner.headers, match.user.uid)).statusCode).toBe(200);
    expect((await choose(match.headers, owner.user.uid)).json().match).not.toBeNull();
    const sections = async (viewer: Headers) => {
      const p = (await view(viewer, owner.user.uid)).json() as PublicProfile;
      return { dating: p.dating !== null, now: p.now !== null };
    };
    // Now shown to matches only, dating to matches only.
    await visibility(owner.headers, { showInNow: true, nowVisibleToAll: false, datingVisibleToAll: false });
    expect(await sections(match.headers)).toEqual({ dating: true, now: true });
    expect(await sections(stranger.headers)).toEqual({ dating: false, now: false });
    await visibility(owner.headers, { hideFromMatches: true, nowVisibleToAll: true, datingVisibleToAll: true });
    expect(await sections(match.headers)).toEqual({ dating: false, now: false });
    expect(await sections(stranger.headers)).toEqual({ dating: true, now: true });
  });

  it('hides online status and last seen when the owner turns them off, and the mode when asked', async () => {
    const owner = await signUpMember(t().app, t().db);
    const viewer = await signUpMember(t().app, t().db);
    const seen = new Date('2026-05-31T20:00:00Z');
    await t().db.updateTable('users').set({ is_online: true, last_seen: seen }).where('id', '=', owner.user.uid).execute();
    let p = (await view(viewer.headers, owner.user.uid)).json() as PublicProfile;
    expect(p).toMatchObject({ isOnline: true, lastSeen: seen.toISOString() });

    await t()
      .db.updateTable('user_settings')
      .set({ show_online_status: false, show_last_active: false })
      .where('user_id', '=', owner.user.uid)
      .execute();
    p = (await view(viewer.headers, owner.user.uid)).json() as PublicProfile;
    expect(p).toMatchObject({ isOnline: null, lastSeen: null });
    const self = (await view(owner.headers, owner.user.uid)).json() as PublicProfile;
    expect(self).toMatchObject({ isOnline: true, lastSeen: seen.toISOString() });

    await patch(owner.headers, {
      modeSettings: { privacySettings: { showModeInProfile: false, allowCrossModeMatching: false } },
    });
    expect(((await view(viewer.headers, owner.user.uid)).json() as PublicProfile).currentMode).toBe('hidden');
    expect(((await view(owner.headers, owner.user.uid)).json() as PublicProfile).currentMode).toBe('dating');
  });

  it("is 'User not found' when blocked either way, inactive or unknown", async () => {
    const a = await signUpMember(t().app, t().db);
    const b = await signUpMember(t().app, t().db);
    const c = await signUpMember(t().app, t().db);
    const notFound = async (headers: Headers, id: string) => {
      const res = await view(headers, id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'not_found', message: 'User not found' });
    };
    expect((await view(a.headers, b.user.uid)).statusCode).toBe(200);
    await block(t().db, a.user.uid, b.user.uid);
    await notFound(a.headers, b.user.uid); // a blocked b
    await notFound(b.headers, a.user.uid); // b was blocked by a
    expect((await view(c.headers, a.user.uid)).statusCode).toBe(200);
    expect((await view(c.headers, b.user.uid)).statusCode).toBe(200);

    await t().db.updateTable('users').set({ is_active: false }).where('id', '=', c.user.uid).execute();
    await notFound(a.headers, c.user.uid);
    await notFound(a.headers, 'no-such-user');
    await notFound(a.headers, 'demo-9999');
  });

  it('serves demo users like any other, marked isDemo', async () => {
    const storage = new LocalDiskStorage(`${t().config.dataDir}/files`);
    await seedDemoUsers(t().db, storage, { count: 2, city: 'London', seed: 3 }, t().clock.now());
    const viewer = await signUpMember(t().app, t().db);
    const res = await view(viewer.headers, 'demo-0001');
    expect(res.statusCode).toBe(200);
    const p = res.json() as PublicProfile;
    expect(p).toMatchObject({ uid: 'demo-0001', isDemo: true, isMe: false });
    expect(p.displayName).toBeTruthy();
    // The seed gives each demo man two or three portraits of one face.
    expect(p.photos.length).toBeGreaterThanOrEqual(2);
    expect(p.photos.length).toBeLessThanOrEqual(3);
    expect(p.dating?.prompts.length).toBeGreaterThanOrEqual(2);
    expect(res.body).not.toContain('@');
    const file = await t().app.inject({ method: 'GET', url: p.photos[0]!.url! });
    expect(file.statusCode).toBe(200);
  });
});
