import { randomUUID } from 'node:crypto';
import {
  AccessMessages,
  type Actor,
  CLICKABLE_UPSELL,
  DEFAULT_SETTINGS,
  DENY_REASONS,
  type DenyReason,
  Messages,
} from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { block, finishOnboarding, makeStaff, setTier, signUp, signUpMember } from '../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../test/harness.ts';
import { accessError, actorOf, loadActor, loadSubject, loadTier, requireAccess } from './access.ts';
import { AppError } from './errors.ts';

describe.each(DB_KINDS)('the access layer on %s', (kind) => {
  const t = useTestApp(kind);
  const actor = async (id: string) => (await loadActor(t().db, id))!;

  it('loads the actor in one read: tier, onboarding, switches, consent, location and staff record', async () => {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'free');
    const a = await actor(u.user.uid);
    expect(a).toMatchObject({
      id: u.user.uid,
      tier: 'free',
      staff: null,
      profileComplete: false,
      isActive: true,
      currentMode: 'dating',
      settings: { appMode: 'both', cruisingEnabled: true, locationSharingConsent: false, hasLocation: false },
    });
    // No count is read with the actor: each is read by the service that spends it.
    expect(Object.values(a.usage).every(Number.isNaN)).toBe(true);

    await makeStaff(t().db, u.user.uid, 'moderator', false);
    await t()
      .db.updateTable('users')
      .set({ onboarding_complete: true, has_lifetime_premium: true, health_enabled: false })
      .where('id', '=', u.user.uid)
      .execute();
    expect(await actor(u.user.uid)).toMatchObject({
      tier: 'premium',
      staff: { role: 'moderator', isActive: false, permissions: null },
      profileComplete: true,
      settings: { healthEnabled: false },
    });
    expect(await loadActor(t().db, 'nobody')).toBeUndefined();
  });

  it("reads another user's effective tier as his actor would carry it, and nothing for no one", async () => {
    const u = await signUp(t().app);
    await setTier(t().db, u.user.uid, 'platinum');
    expect(await loadTier(t().db, u.user.uid)).toBe('platinum');
    await setTier(t().db, u.user.uid, 'free');
    await t().db.updateTable('users').set({ has_lifetime_premium: true }).where('id', '=', u.user.uid).execute();
    expect(await loadTier(t().db, u.user.uid)).toBe('premium');
    expect(await loadTier(t().db, u.user.uid)).toBe((await actor(u.user.uid)).tier);
    expect(await loadTier(t().db, 'nobody')).toBeUndefined();
  });

  it('loads how another user stands to the actor, each relation from its own table', async () => {
    const [a, b] = [await signUpMember(t().app, t().db), await signUpMember(t().app, t().db)];
    const now = t().clock.now();
    const subject = async () => (await loadSubject(t().db, await actor(a.user.uid), b.user.uid, now))!;
    expect(await subject()).toMatchObject({
      id: b.user.uid,
      isActive: true,
      profileComplete: true,
      relation: {
        blockedByActor: false,
        blockedActor: false,
        matched: false,
        conversation: false,
        likedActor: false,
        openedToday: false,
      },
      settings: { incognito: false, showOnlineStatus: true, showModeInProfile: true, locationPrecision: 'exact' },
      cruising: false,
    });

    // He chooses the actor, the actor chooses him back: a match and its conversation.
    const choose = (from: typeof a, to: typeof b) =>
      t().app.inject({
        method: 'POST',
        url: '/api/v1/selections',
        headers: from.headers,
        payload: { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() },
      });
    expect((await choose(b, a)).statusCode).toBe(200);
    expect((await subject()).relation).toMatchObject({ likedActor: true, matched: false });
    expect((await choose(a, b)).statusCode).toBe(200);
    expect((await subject()).relation).toMatchObject({ matched: true, conversation: true });

    await t()
      .db.insertInto('grid_unlocks')
      .values({ viewer_id: a.user.uid, day: now.toISOString().slice(0, 10), target_id: b.user.uid, position: 0, created_at: now })
      .execute();
    await t()
      .db.insertInto('cruise_sessions')
      .values({ id: randomUUID(), user_id: b.user.uid, started_at: now, ends_at: new Date(now.getTime() + 60_000) })
      .execute();
    expect(await subject()).toMatchObject({ relation: { openedToday: true }, cruising: true });

    await block(t().db, b.user.uid, a.user.uid);
    expect((await subject()).relation).toMatchObject({ blockedActor: true, blockedByActor: false });
    await block(t().db, a.user.uid, b.user.uid);
    expect((await subject()).relation).toMatchObject({ blockedActor: true, blockedByActor: true });
    expect(await loadSubject(t().db, await actor(a.user.uid), 'nobody', now)).toBeUndefined();
  });

  it('loads the actor once per request, and only when asked', async () => {
    const u = await signUp(t().app);
    const req = { auth: { userId: u.user.uid, sessionId: 's', expiresAt: new Date() } } as unknown as FastifyRequest;
    const first = actorOf(req, t().db);
    expect(actorOf(req, t().db)).toBe(first);
    expect((await first).id).toBe(u.user.uid);
    const gone = { auth: { userId: 'nobody', sessionId: 's', expiresAt: new Date() } } as unknown as FastifyRequest;
    await expect(actorOf(gone, t().db)).rejects.toMatchObject({ status: 401 });
  });
});

/**
 * Spec section 2: until onboarding is finished it is his only screen. The server refuses every
 * route that lists, opens or acts on other users with 403 profile_incomplete (the code the
 * onboarding finish route gives for the same state), and serves them once it is finished.
 */
describe.each(DB_KINDS)('a user whose onboarding is unfinished, on %s', (kind) => {
  const t = useTestApp(kind);
  type Req = { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object };
  const call = (u: { headers: Record<string, string> }, r: Req) => t().app.inject({ ...r, headers: u.headers });
  /** Refused while his profile is unfinished, served (with `ok`) once he has finished it. */
  async function refusedUntilFinished(r: Req, ok = 200, setUp?: (me: Awaited<ReturnType<typeof signUp>>) => Promise<void>) {
    const me = await signUp(t().app);
    await setUp?.(me);
    const refused = await call(me, r);
    expect(refused.statusCode, `${r.method} ${r.url}`).toBe(403);
    expect(refused.json()).toEqual({ error: 'profile_incomplete', message: Messages.profileIncomplete });
    await finishOnboarding(t().db, me.user.uid);
    const served = await call(me, r);
    expect(served.statusCode, `${r.method} ${r.url}: ${served.body}`).toBe(ok);
    return me;
  }

  it('may not list the grid', async () => {
    await refusedUntilFinished({ method: 'GET', url: '/api/v1/grid' });
  });

  it("may not open another user's profile, nor learn whether he exists; still reads his own", async () => {
    const other = await signUpMember(t().app, t().db);
    const unknown = await signUp(t().app);
    await refusedUntilFinished({ method: 'GET', url: `/api/v1/users/${other.user.uid}` }, 200, async (me) => {
      expect((await call(me, { method: 'GET', url: `/api/v1/users/${me.user.uid}` })).statusCode).toBe(200);
      const nobody = await call(me, { method: 'GET', url: '/api/v1/users/nobody' });
      expect(nobody.statusCode).toBe(403);
      await block(t().db, unknown.user.uid, me.user.uid);
      expect((await call(me, { method: 'GET', url: `/api/v1/users/${unknown.user.uid}` })).json()).toEqual(nobody.json());
    });
  });

  it("may not like another user's answer", async () => {
    const owner = await signUpMember(t().app, t().db);
    const answered = await t().app.inject({
      method: 'PATCH',
      url: '/api/v1/me',
      headers: owner.headers,
      payload: { datingProfile: { prompts: [{ promptId: 'starter-1', question: 'q', answer: 'a' }] } },
    });
    expect(answered.statusCode).toBe(200);
    await refusedUntilFinished({ method: 'POST', url: `/api/v1/users/${owner.user.uid}/prompts/starter-1/like` });
  });

  it('may not select anyone, nor see who likes him or his matches', async () => {
    const other = await signUpMember(t().app, t().db);
    const selection = { targetId: other.user.uid, action: 'fuck', super: false, clientId: randomUUID() };
    await refusedUntilFinished({ method: 'POST', url: '/api/v1/selections', payload: selection });
    // Before the target is looked at: an unknown one is refused alike.
    await refusedUntilFinished({ method: 'POST', url: '/api/v1/selections', payload: { ...selection, targetId: 'nobody' } }, 404);
    await refusedUntilFinished({ method: 'GET', url: '/api/v1/likes' });
    await refusedUntilFinished({ method: 'GET', url: '/api/v1/matches' });
  });

  it('may not list nearby cruisers, whatever his cruise settings', async () => {
    await refusedUntilFinished({ method: 'GET', url: '/api/v1/cruise/nearby' });
    // Cruising off: the unfinished profile is told first, then cruising.
    const off = await refusedUntilFinished({ method: 'GET', url: '/api/v1/cruise/nearby' }, 403, async (me) => {
      await t().db.updateTable('users').set({ cruising_enabled: false }).where('id', '=', me.user.uid).execute();
    });
    expect((await call(off, { method: 'GET', url: '/api/v1/cruise/nearby' })).json().error).toBe('cruising_disabled');
  });

  it('may not list, open, read or write conversations', async () => {
    const me = await signUp(t().app);
    const other = await signUpMember(t().app, t().db);
    // A Platinum member may open a conversation with anyone, an unfinished profile too.
    await setTier(t().db, other.user.uid, 'platinum');
    const opened = await call(other, { method: 'POST', url: '/api/v1/conversations', payload: { userId: me.user.uid } });
    expect(opened.statusCode).toBe(200);
    const id = opened.json().id as string;
    const sent = await call(other, {
      method: 'POST',
      url: `/api/v1/conversations/${id}/messages`,
      payload: { clientId: randomUUID(), content: 'hi' },
    });
    const requests: [Req, number][] = [
      [{ method: 'GET', url: '/api/v1/conversations' }, 200],
      [{ method: 'POST', url: '/api/v1/conversations', payload: { userId: other.user.uid } }, 200],
      [{ method: 'GET', url: `/api/v1/conversations/${id}` }, 200],
      [{ method: 'GET', url: `/api/v1/conversations/${id}/messages` }, 200],
      [{ method: 'GET', url: '/api/v1/messages/since?after=0' }, 200],
      [{ method: 'POST', url: `/api/v1/conversations/${id}/read`, payload: { upTo: sent.json().seq } }, 204],
      [{ method: 'POST', url: `/api/v1/conversations/${id}/typing`, payload: { typing: true } }, 204],
      [
        { method: 'POST', url: `/api/v1/conversations/${id}/messages`, payload: { clientId: randomUUID(), content: 'hello' } },
        201,
      ],
      [{ method: 'DELETE', url: `/api/v1/conversations/${id}` }, 204],
    ];
    for (const [r] of requests) {
      const refused = await call(me, r);
      expect(refused.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(refused.json()).toEqual({ error: 'profile_incomplete', message: Messages.profileIncomplete });
    }
    await finishOnboarding(t().db, me.user.uid);
    for (const [r, ok] of requests) {
      const served = await call(me, r);
      expect(served.statusCode, `${r.method} ${r.url}: ${served.body}`).toBe(ok);
    }
  });
});

describe('requireAccess', () => {
  const actor: Actor = {
    id: 'me',
    tier: 'free',
    staff: null,
    verified: false,
    profileComplete: true,
    isActive: true,
    currentMode: 'dating',
    settings: {
      appMode: 'both',
      cruisingEnabled: true,
      healthEnabled: true,
      activityTrackingEnabled: true,
      locationSharingConsent: true,
      hasLocation: true,
    },
    usage: { opensToday: Number.NaN, messagesToday: Number.NaN, supersToday: Number.NaN, cruiseStarts: Number.NaN, photos: 0 },
    userSettings: DEFAULT_SETTINGS,
  };

  it('answers each refusal with the status, code and message the API gave for it', () => {
    const answer = (action: Parameters<typeof accessError>[0], reason: DenyReason, message = 'm') => {
      const e = accessError(action, { allowed: false, reason, message });
      return { status: e.status, code: e.code, message: e.message, fields: e.fields };
    };
    expect(answer('profile.view', 'blocked', Messages.userNotFound)).toEqual({
      status: 404,
      code: 'not_found',
      message: Messages.userNotFound,
      fields: undefined,
    });
    for (const reason of ['not_found', 'hidden', 'not_participant'] as const)
      expect(answer('profile.view', reason).status).toBe(404);
    expect(answer('grid.list', 'incomplete_profile')).toMatchObject({ status: 403, code: 'profile_incomplete' });
    expect(answer('profile.open', 'tier_limit', CLICKABLE_UPSELL)).toMatchObject({
      status: 403,
      code: 'limit_reached',
      message: CLICKABLE_UPSELL,
    });
    expect(answer('cruise.use', 'feature_disabled')).toMatchObject({ status: 403, code: 'cruising_disabled' });
    expect(answer('health.use', 'feature_disabled')).toMatchObject({ status: 403, code: 'feature_disabled' });
    expect(answer('admin.access', 'staff_only')).toMatchObject({ status: 403, code: 'not_admin' });
    expect(answer('admin.prompts.edit', 'staff_only')).toMatchObject({ status: 403, code: 'admin_required' });
    expect(answer('admin.access', 'staff_inactive')).toMatchObject({ status: 403, code: 'admin_inactive' });
    expect(answer('cruise.start', 'consent_required')).toMatchObject({ status: 403, code: 'consent_required' });
    expect(answer('profile.view', 'inactive')).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(answer('conversation.open', 'self', AccessMessages.cannotMessageSelf)).toMatchObject({
      status: 400,
      fields: { userId: 'is you' },
    });
    expect(answer('game.marry', 'not_offered')).toMatchObject({ status: 400, fields: { action: 'not offered by appMode' } });
    // Every reason has an answer in the 4xx range.
    for (const reason of DENY_REASONS) expect(answer('profile.view', reason).status).toBeLessThan(500);
  });

  it('throws the refusal, and returns what an allowed action spends', () => {
    expect(() => requireAccess({ ...actor, tier: 'free' }, 'filters.advanced')).toThrow(AppError);
    expect(requireAccess({ ...actor, tier: 'premium' }, 'filters.advanced')).toEqual({ allowed: true, spends: null });
  });

  it('insists on the count of a limited action: a missing count is a bug, never an allowance', () => {
    expect(() => requireAccess(actor, 'game.super')).toThrow('needs usage.supersToday');
  });
});
