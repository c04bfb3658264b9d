import { randomUUID } from 'node:crypto';
import { type GridPage, type LatLng, MATCHES_ONLY_TEXT, type MessagePage, NO_CONTACT_LINK_TEXT } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { east } from '../../../test/discovery.ts';
import { setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';

type Headers = Record<string, string>;
type Member = Awaited<ReturnType<typeof signUpMember>>;

/** Each test in its own town, far from the others'. */
let town = 0;
const newTown = (): LatLng => {
  town += 1;
  return { lat: 40 + (town % 10), lng: -120 + town * 3 };
};

/**
 * Each privacy control (spec section 6) as the OTHER man sees it: the owner turns it on through
 * PATCH /me/settings, and the viewer's answers (grid, profile, messages, contacts) change.
 */
describe.each(DB_KINDS)('privacy controls seen from the other side on %s', (kind) => {
  const t = useTestApp(kind);
  const api = (u: { headers: Headers }, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    t().app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });
  const ok = async (...args: Parameters<typeof api>) => {
    const res = await api(...args);
    expect([200, 201, 204], `${args[1]} ${args[2]}: ${res.body}`).toContain(res.statusCode);
    return res;
  };

  /** A Premium member (may use every control) sharing a location at `at`, or none. */
  async function member(at?: LatLng, tier: 'premium' | 'platinum' = 'premium'): Promise<Member> {
    const m = await signUpMember(t().app, t().db);
    await setTier(t().db, m.user.uid, tier);
    if (at) {
      await ok(m, 'PUT', '/me/location/consent', { consent: true });
      await ok(m, 'PUT', '/me/location', at);
    }
    return m;
  }
  const set = (m: Member, change: object) => ok(m, 'PATCH', '/me/settings', change);
  const grid = async (v: Member) => (await ok(v, 'GET', '/grid')).json() as GridPage;
  const cellOf = async (v: Member, owner: Member) => (await grid(v)).items.find((i) => i.uid === owner.user.uid);
  const profile = (v: Member, owner: Member) => api(v, 'GET', `/users/${owner.user.uid}`);
  async function match(a: Member, b: Member): Promise<string> {
    await ok(a, 'POST', '/selections', { targetId: b.user.uid, action: 'fuck', clientId: randomUUID() });
    const m = await ok(b, 'POST', '/selections', { targetId: a.user.uid, action: 'fuck', clientId: randomUUID() });
    return m.json().match.conversationId as string;
  }

  it('profile visibility (hideFromSearch): out of the grid, and his profile is there only for a match', async () => {
    const here = newTown();
    const owner = await member(here);
    const viewer = await member(east(here, 2), 'platinum');
    expect(await cellOf(viewer, owner)).toBeDefined();
    expect((await profile(viewer, owner)).statusCode).toBe(200);
    await set(owner, { safety: { privacySettings: { hideFromSearch: true } } });
    expect(await cellOf(viewer, owner)).toBeUndefined();
    const hidden = await profile(viewer, owner);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('User not found');
    await match(viewer, owner);
    expect((await profile(viewer, owner)).statusCode).toBe(200);
    expect(await cellOf(viewer, owner)).toBeUndefined();
  });

  it('incognito: out of the grid', async () => {
    const here = newTown();
    const owner = await member(here);
    const viewer = await member(east(here, 1), 'platinum');
    expect(await cellOf(viewer, owner)).toBeDefined();
    await set(owner, { privacy: { incognito: true } });
    expect(await cellOf(viewer, owner)).toBeUndefined();
  });

  it('distance sharing: listed, with no distance', async () => {
    const here = newTown();
    const owner = await member(here);
    const viewer = await member(east(here, 3), 'platinum');
    expect((await cellOf(viewer, owner))?.distance).toMatch(/mi|km/);
    await set(owner, { privacy: { shareDistance: false } });
    const cell = await cellOf(viewer, owner);
    expect(cell).toBeDefined();
    expect(cell!.distance).toBeNull();
  });

  it('app mode visibility, online status and last active: his profile shows none of them', async () => {
    const owner = await member();
    const viewer = await member(undefined, 'platinum');
    await t()
      .db.updateTable('users')
      .set({ is_online: true, last_seen: t().clock.now() })
      .where('id', '=', owner.user.uid)
      .execute();
    const before = (await profile(viewer, owner)).json();
    expect(before.currentMode).toBe('dating');
    expect(before.isOnline).toBe(true);
    await set(owner, { privacy: { showCurrentMode: false, showOnlineStatus: false } });
    const after = (await profile(viewer, owner)).json();
    expect(after.currentMode).toBe('hidden');
    expect(after.isOnline).toBeNull();
    await t().db.updateTable('users').set({ is_online: false }).where('id', '=', owner.user.uid).execute();
    await set(owner, { privacy: { showOnlineStatus: true } });
    expect((await profile(viewer, owner)).json().lastSeen).not.toBeNull();
    await set(owner, { safety: { privacySettings: { hideLastSeen: true } } });
    expect((await profile(viewer, owner)).json().lastSeen).toBeNull();
  });

  it('read receipts (hideReadReceipts): a Premium sender gets no read status from him', async () => {
    const sender = await member(undefined, 'premium');
    const owner = await member();
    const conversationId = await match(sender, owner);
    const send = async (content: string) =>
      (await ok(sender, 'POST', `/conversations/${conversationId}/messages`, { clientId: randomUUID(), content })).json();
    const status = async () =>
      ((await ok(sender, 'GET', `/conversations/${conversationId}/messages`)).json() as MessagePage).messages.at(-1)!.status;
    const m1 = await send('one');
    await ok(owner, 'POST', `/conversations/${conversationId}/read`, { upTo: m1.seq });
    expect(await status()).toBe('read');
    await set(owner, { safety: { privacySettings: { hideReadReceipts: true } } });
    const m2 = await send('two');
    await ok(owner, 'POST', `/conversations/${conversationId}/read`, { upTo: m2.seq });
    expect(await status()).not.toBe('read');
  });

  it('message settings (matches only): no new conversation, no message from one who is not a match', async () => {
    const owner = await member();
    const stranger = await member(undefined, 'platinum');
    const opened = (await ok(stranger, 'POST', '/conversations', { userId: owner.user.uid })).json();
    await set(owner, { privacy: { messagesFrom: 'matches' } });
    const sent = await api(stranger, 'POST', `/conversations/${opened.id}/messages`, { clientId: randomUUID(), content: 'hey' });
    expect(sent.statusCode).toBe(403);
    expect(sent.json().message).toBe(MATCHES_ONLY_TEXT);
    const other = await member(undefined, 'platinum');
    const refused = await api(other, 'POST', '/conversations', { userId: owner.user.uid });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MATCHES_ONLY_TEXT);
    // A match still may.
    const friend = await member(undefined, 'premium');
    const conversationId = await match(friend, owner);
    await ok(friend, 'POST', `/conversations/${conversationId}/messages`, { clientId: randomUUID(), content: 'hi' });
  });

  it('cruising and health privacy: Right Now and safety info only for matches', async () => {
    const here = newTown();
    const owner = await member(here);
    await ok(owner, 'PATCH', '/me', {
      appPreferences: {
        appMode: 'both',
        cruisingEnabled: true,
        healthEnabled: true,
        activityTrackingEnabled: true,
        rightNowEnabled: true,
      },
      nowProfile: { rightNow: 'Coffee downtown', availability: 'available', safetyInfo: 'On PrEP, tested in May' },
      modeVisibility: { showInDating: true, showInNow: true, nowVisibleToAll: true },
    });
    const stranger = await member(east(here, 1), 'platinum');
    const friend = await member(east(here, 1), 'platinum');
    await match(friend, owner);
    expect((await cellOf(stranger, owner))?.rightNow).toBe('Coffee downtown');
    expect((await profile(stranger, owner)).json().now).toMatchObject({
      rightNow: 'Coffee downtown',
      safetyInfo: 'On PrEP, tested in May',
    });
    await set(owner, { privacy: { cruisingPrivate: true, healthPrivate: true } });
    expect((await cellOf(stranger, owner))?.rightNow).toBeNull();
    expect((await profile(stranger, owner)).json().now).toMatchObject({
      rightNow: null,
      availability: 'offline',
      safetyInfo: '',
    });
    expect((await profile(friend, owner)).json().now).toMatchObject({
      rightNow: 'Coffee downtown',
      availability: 'available',
      safetyInfo: 'On PrEP, tested in May',
    });
  });

  it('activity privacy: a match may not link him in a contact book', async () => {
    const owner = await member();
    const friend = await member();
    await match(friend, owner);
    await ok(friend, 'POST', '/activity/contacts', { name: 'Sam', userId: owner.user.uid });
    await set(owner, { privacy: { activityPrivate: true } });
    const refused = await api(friend, 'POST', '/activity/contacts', { name: 'Sam again', userId: owner.user.uid });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(NO_CONTACT_LINK_TEXT);
  });
});
