import {
  authResultSchema,
  DAY,
  DEFAULT_APP_PREFERENCES,
  DEFAULT_DATING_PROFILE,
  DEFAULT_MODE_SETTINGS,
  DEFAULT_MODE_VISIBILITY,
  DEFAULT_NOW_PROFILE,
  DEFAULT_PREFERENCES,
  DEFAULT_STATS,
  Messages,
  MINUTE,
  sessionInfoSchema,
} from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { newEmail, PASSWORD, signUp, staffSignIn } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { saveBetaSettings } from '../identity/repo.ts';
import { IdentityService } from '../identity/service.ts';

const OTHER_HOST = 'fmk.example.com';

describe.each(DB_KINDS)('auth on %s', (kind) => {
  const t = useTestApp(kind);
  const identity = () => new IdentityService({ config: t().config, clock: t().clock });
  const post = (url: string, payload: unknown, opts: { host?: string; ip?: string; token?: string } = {}) =>
    t().app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      headers: { ...(opts.host ? { host: opts.host } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
      ...(opts.ip ? { remoteAddress: opts.ip } : {}),
    });
  const get = (url: string, token?: string, host?: string) =>
    t().app.inject({
      method: 'GET',
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(host ? { host } : {}) },
    });
  const countUsers = async (email: string) =>
    Number(
      (
        await t()
          .db.selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const setBeta = (s: { enabled: boolean; maxUsers: number; currentCount: number }) =>
    saveBetaSettings(t().db, { ...s, lifetimePremium: true, autoClose: true }, t().clock.now());
  const betaCount = async () => {
    const row = await t().db.selectFrom('admin_settings').select('value').where('key', '=', 'beta').executeTakeFirstOrThrow();
    return row.value as { currentCount: number; enabled: boolean };
  };

  describe('sign-up', () => {
    it('creates the user with every default of the spec, settings and an identity mapping', async () => {
      const email = newEmail();
      const res = await post('/api/v1/auth/signup', { email, password: PASSWORD }, { host: OTHER_HOST });
      expect(res.statusCode).toBe(201);
      const body = authResultSchema.parse(res.json());
      expect(new Date(body.expiresAt).getTime()).toBe(t().clock.now().getTime() + 60 * MINUTE);
      const me = body.user;
      expect(me).toMatchObject({
        email,
        age: 18,
        subscriptionTier: 'free',
        isActive: true,
        onboardingComplete: false,
        isBetaUser: false,
        hasLifetimePremium: false,
        betaJoinedAt: null,
        currentMode: 'dating',
        appPreferences: DEFAULT_APP_PREFERENCES,
        modeSettings: DEFAULT_MODE_SETTINGS,
        position: 'Vers',
        photos: [],
        preferences: DEFAULT_PREFERENCES,
        stats: DEFAULT_STATS,
        datingProfile: DEFAULT_DATING_PROFILE,
        nowProfile: DEFAULT_NOW_PROFILE,
        modeVisibility: DEFAULT_MODE_VISIBILITY,
      });
      expect(me.preferences).toEqual({ ageRange: [18, 50], maxDistance: 50, showMe: 'everyone', units: 'imperial' });
      expect(me.anonymousId).toMatch(/^anon_[a-z0-9]{12}$/);

      const settings = await t().db.selectFrom('user_settings').selectAll().where('user_id', '=', me.uid).executeTakeFirst();
      expect(settings).toMatchObject({ profile_visibility: 'public', location_precision: 'exact' });
      const mapping = await t()
        .db.selectFrom('identity_mappings')
        .selectAll()
        .where('id', '=', me.anonymousId)
        .executeTakeFirst();
      expect(mapping).toMatchObject({
        email,
        user_id: me.uid,
        is_active: true,
        registration_source: 'email',
        previous_emails: [],
      });
      const row = await t().db.selectFrom('users').select('password_hash').where('id', '=', me.uid).executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('stores the email lowercased, and signs in with any case', async () => {
      const mixed = `Mixed${Date.now()}@Example.com`;
      const res = await post('/api/v1/auth/signup', { email: mixed, password: PASSWORD });
      expect(res.statusCode).toBe(201);
      expect(res.json().user.email).toBe(mixed.toLowerCase());
      const login = await post('/api/v1/auth/login', { email: mixed.toLowerCase(), password: PASSWORD });
      expect(login.statusCode).toBe(200);
      const again = await post('/api/v1/auth/signup', { email: mixed.toUpperCase(), password: PASSWORD });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(Messages.emailTaken);
    });

    it('refuses a short password, a bad email and a missing body with 400 and writes nothing', async () => {
      const email = newEmail();
      const short = await post('/api/v1/auth/signup', { email, password: 'short' });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ error: 'invalid_input', message: 'Passwords must be at least 8 characters.' });
      const bad = await post('/api/v1/auth/signup', { email: 'not-an-email', password: PASSWORD });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Enter a valid email address.');
      const none = await post('/api/v1/auth/signup', {});
      expect(none.statusCode).toBe(400);
      const extraLong = await post('/api/v1/auth/signup', { email, password: 'x'.repeat(201) });
      expect(extraLong.statusCode).toBe(400);
      expect(await countUsers(email)).toBe(0);
      expect(await countUsers('not-an-email')).toBe(0);
    });

    it('refuses a duplicate email with 409', async () => {
      const email = newEmail();
      await signUp(t().app, { email });
      const res = await post('/api/v1/auth/signup', { email, password: PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: 'conflict', message: Messages.emailTaken });
      expect(await countUsers(email)).toBe(1);
    });
    it('lets only one of two simultaneous sign-ups with one email through', async () => {
      const email = newEmail();
      const results = await Promise.all([0, 1].map(() => post('/api/v1/auth/signup', { email, password: PASSWORD })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(await countUsers(email)).toBe(1);
    });
  });

  describe('beta', () => {
    it('makes a localhost sign-up a beta user with lifetime premium, without using up a place', async () => {
      await setBeta({ enabled: false, maxUsers: 1000, currentCount: 7 });
      const res = await post('/api/v1/auth/signup', { email: newEmail(), password: PASSWORD }, { host: 'localhost:8080' });
      expect(res.json().user).toMatchObject({
        isBetaUser: true,
        hasLifetimePremium: true,
        subscriptionTier: 'premium',
        betaJoinedAt: t().clock.now().toISOString(),
      });
      expect((await betaCount()).currentCount).toBe(7);
    });

    it('does not admit another host while the beta is disabled', async () => {
      await setBeta({ enabled: false, maxUsers: 1000, currentCount: 0 });
      const res = await post('/api/v1/auth/signup', { email: newEmail(), password: PASSWORD }, { host: OTHER_HOST });
      expect(res.json().user).toMatchObject({ isBetaUser: false, hasLifetimePremium: false, subscriptionTier: 'free' });
    });

    it('admits another host while enabled and not full, counts it, and closes itself when full', async () => {
      await setBeta({ enabled: true, maxUsers: 3, currentCount: 1 });
      const first = await post('/api/v1/auth/signup', { email: newEmail(), password: PASSWORD }, { host: OTHER_HOST });
      expect(first.json().user).toMatchObject({ isBetaUser: true, hasLifetimePremium: true, subscriptionTier: 'premium' });
      expect(await betaCount()).toMatchObject({ currentCount: 2, enabled: true });
      const last = await post('/api/v1/auth/signup', { email: newEmail(), password: PASSWORD }, { host: OTHER_HOST });
      expect(last.json().user.isBetaUser).toBe(true);
      expect(await betaCount()).toMatchObject({ currentCount: 3, enabled: false });
    });

    it('does not admit another host when the beta is full', async () => {
      await setBeta({ enabled: true, maxUsers: 5, currentCount: 5 });
      const res = await post('/api/v1/auth/signup', { email: newEmail(), password: PASSWORD }, { host: OTHER_HOST });
      expect(res.json().user.isBetaUser).toBe(false);
      expect((await betaCount()).currentCount).toBe(5);
    });

    it('reports beta eligibility in GET /config', async () => {
      await setBeta({ enabled: false, maxUsers: 1000, currentCount: 0 });
      const local = await get('/api/v1/config');
      expect(local.statusCode).toBe(200);
      expect(local.json()).toEqual({ googleEnabled: false, vapidPublicKey: null, beta: { eligible: true } });
      expect((await get('/api/v1/config', undefined, OTHER_HOST)).json().beta.eligible).toBe(false);
    });
  });

  describe('sign-in', () => {
    it('signs in with the right password and the token opens the session', async () => {
      const { user } = await signUp(t().app);
      const res = await post('/api/v1/auth/login', { email: user.email, password: PASSWORD });
      expect(res.statusCode).toBe(200);
      const body = authResultSchema.parse(res.json());
      expect(body.user.uid).toBe(user.uid);
      const session = await get('/api/v1/auth/session', body.token);
      expect(session.statusCode).toBe(200);
      expect(sessionInfoSchema.parse(session.json())).toMatchObject({ user: { uid: user.uid }, expiresAt: body.expiresAt });
    });

    it('says the same thing for a wrong password and an unknown email', async () => {
      const { user } = await signUp(t().app);
      const wrong = await post('/api/v1/auth/login', { email: user.email, password: 'wrong password' }, { ip: '10.0.0.1' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe('Incorrect email or password.');
      const unknown = await post('/api/v1/auth/login', { email: newEmail(), password: PASSWORD }, { ip: '10.0.0.1' });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual(wrong.json());
      const empty = await post('/api/v1/auth/login', { email: user.email, password: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('Enter your password.');
    });
    // The sign-in throttle has its own tests (throttle.test.ts).
  });

  describe('sessions', () => {
    it('signs out: 204, and the token is refused everywhere afterwards', async () => {
      const a = await signUp(t().app);
      // Seen live first (the session is cached then): sign-out must still end it at once.
      expect((await get('/api/v1/auth/session', a.token)).statusCode).toBe(200);
      const out = await post('/api/v1/auth/logout', undefined, { token: a.token });
      expect(out.statusCode).toBe(204);
      const session = await get('/api/v1/auth/session', a.token);
      expect(session.statusCode).toBe(401);
      expect(session.json().message).toBe('Authentication required');
      expect((await post('/api/v1/auth/refresh', undefined, { token: a.token })).statusCode).toBe(401);
      expect((await post('/api/v1/auth/logout', undefined, { token: a.token })).statusCode).toBe(401);
      const row = await t()
        .db.selectFrom('sessions')
        .select('revoked_at')
        .where('user_id', '=', a.user.uid)
        .executeTakeFirstOrThrow();
      expect(row.revoked_at).toEqual(t().clock.now());
    });

    it('answers the cheap token check: 200 with the expiry while live, 401 without a token or after sign-out', async () => {
      const a = await signUp(t().app);
      const check = await get('/api/v1/auth/check', a.token);
      expect(check.statusCode).toBe(200);
      expect(check.json()).toEqual({ expiresAt: a.expiresAt });
      expect((await t().app.inject({ method: 'GET', url: '/api/v1/auth/check' })).statusCode).toBe(401);
      expect((await post('/api/v1/auth/logout', undefined, { token: a.token })).statusCode).toBe(204);
      expect((await get('/api/v1/auth/check', a.token)).statusCode).toBe(401);
    });

    it('refreshes a live session with a later-expiring token', async () => {
      const a = await signUp(t().app);
      t().clock.advance(30 * MINUTE);
      const res = await post('/api/v1/auth/refresh', undefined, { token: a.token });
      expect(res.statusCode).toBe(200);
      const body = authResultSchema.parse(res.json());
      expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(new Date(a.expiresAt).getTime());
      expect(body.user.uid).toBe(a.user.uid);
      t().clock.advance(45 * MINUTE); // the first token has expired, the refreshed one has not
      expect((await get('/api/v1/auth/session', a.token)).statusCode).toBe(401);
      expect((await get('/api/v1/auth/session', body.token)).statusCode).toBe(200);
    });

    it('refuses an expired token, a forged one and none', async () => {
      const a = await signUp(t().app);
      expect((await get('/api/v1/auth/session', a.token)).statusCode).toBe(200);
      t().clock.advance(61 * MINUTE);
      const expired = await get('/api/v1/auth/session', a.token);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().message).toBe('Authentication required');
      expect((await get('/api/v1/auth/session', `${a.token.slice(0, -2)}xx`)).statusCode).toBe(401);
      expect((await get('/api/v1/auth/session')).statusCode).toBe(401);
    });
  });

  describe('bans', () => {
    const admin = { adminId: 'admin-1', reason: 'spam' };

    it('refuses sign-up of a permanently banned email with the notice', async () => {
      const email = newEmail();
      await identity().banEmail(t().db, { email, ...admin, permanent: true });
      const res = await post('/api/v1/auth/signup', { email: email.toUpperCase(), password: PASSWORD });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'email_banned', message: 'Your email is permanently banned. Reason: spam' });
      expect(await countUsers(email)).toBe(0);
    });

    it('refuses sign-up during a temporary ban with its end date', async () => {
      const email = newEmail();
      const expiresAt = new Date(t().clock.now().getTime() + 7 * DAY);
      await identity().banEmail(t().db, { email, ...admin, permanent: false, expiresAt });
      const res = await post('/api/v1/auth/signup', { email, password: PASSWORD });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/^Your email is banned until 2026-\d\d-\d\d\. Reason: spam$/);
      expect(res.json().message).toContain(expiresAt.toISOString().slice(0, 10));
    });

    it('deletes an expired temporary ban at the next check and lets the email sign up', async () => {
      const email = newEmail();
      await identity().banEmail(t().db, {
        email,
        ...admin,
        permanent: false,
        expiresAt: new Date(t().clock.now().getTime() + DAY),
      });
      t().clock.advance(DAY + MINUTE);
      const res = await post('/api/v1/auth/signup', { email, password: PASSWORD });
      expect(res.statusCode).toBe(201);
      const left = await t().db.selectFrom('banned_emails').selectAll().where('email', '=', email).execute();
      expect(left).toEqual([]);
    });

    it('deactivates an existing user: tokens stop working and sign-in shows the ban', async () => {
      const a = await signUp(t().app);
      await identity().banEmail(t().db, { email: a.user.email, ...admin, permanent: true });
      expect((await get('/api/v1/auth/session', a.token)).statusCode).toBe(401);
      const login = await post('/api/v1/auth/login', { email: a.user.email, password: PASSWORD });
      expect(login.statusCode).toBe(403);
      expect(login.json().message).toBe('Your email is permanently banned. Reason: spam');
      const user = await t().db.selectFrom('users').select('is_active').where('id', '=', a.user.uid).executeTakeFirstOrThrow();
      expect(user.is_active).toBe(false);
      const mapping = await t()
        .db.selectFrom('identity_mappings')
        .select('is_active')
        .where('id', '=', a.user.anonymousId)
        .executeTakeFirstOrThrow();
      expect(mapping.is_active).toBe(false);
      // A wrong password still says only "incorrect": the ban is not disclosed without the password.
      expect((await post('/api/v1/auth/login', { email: a.user.email, password: 'wrong password' })).statusCode).toBe(401);
    });

    it('lets a temporarily banned user sign in again once the ban has expired', async () => {
      const a = await signUp(t().app);
      await identity().banEmail(t().db, {
        email: a.user.email,
        ...admin,
        permanent: false,
        expiresAt: new Date(t().clock.now().getTime() + DAY),
      });
      expect((await post('/api/v1/auth/login', { email: a.user.email, password: PASSWORD })).statusCode).toBe(403);
      t().clock.advance(2 * DAY);
      const login = await post('/api/v1/auth/login', { email: a.user.email, password: PASSWORD });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.isActive).toBe(true);
    });

    it('refuses a disabled (not banned) account', async () => {
      const a = await signUp(t().app);
      await t().db.updateTable('users').set({ is_active: false }).where('id', '=', a.user.uid).execute();
      const login = await post('/api/v1/auth/login', { email: a.user.email, password: PASSWORD });
      expect(login.statusCode).toBe(403);
      expect(login.json().message).toBe('This account is disabled.');
    });
  });

  describe('Google when not configured', () => {
    it('answers 404 with a clear message', async () => {
      const res = await get('/api/v1/auth/google/start');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Google sign-in is not configured');
      expect((await get('/api/v1/auth/google/callback?code=x&state=y')).statusCode).toBe(404);
    });

    it('refuses a malformed or unknown redirect result', async () => {
      const short = await post('/api/v1/auth/redirect-result', { code: 'abc' });
      expect(short.statusCode).toBe(400);
      const unknown = await post('/api/v1/auth/redirect-result', { code: 'a'.repeat(43) });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe(Messages.loginFailed);
    });
  });

  describe('admin check', () => {
    it('answers 401 signed out, 403 for a non-admin and an inactive admin, 401 on a member session, 200 on a staff session', async () => {
      expect((await get('/api/v1/admin/me')).statusCode).toBe(401);
      const a = await signUp(t().app);
      const not = await get('/api/v1/admin/me', a.token);
      expect(not.statusCode).toBe(403);
      expect(not.json().message).toBe('User is not an admin');
      await t().db.insertInto('admin_users').values({ user_id: a.user.uid, role: 'moderator', permissions: null }).execute();
      // Staff sessions are apart from member sessions: a member token is sent to the staff sign-in.
      const member = await get('/api/v1/admin/me', a.token);
      expect(member.statusCode).toBe(401);
      expect(member.json().message).toBe('Staff sign-in required');
      const staff = await staffSignIn(t().app, a.user.email, t().clock.now());
      const ok = await get('/api/v1/admin/me', staff.authorization.slice(7));
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ role: 'moderator', permissions: null, totpEnabled: true, recoveryCodesLeft: 10 });
      await t().db.updateTable('admin_users').set({ is_active: false }).where('user_id', '=', a.user.uid).execute();
      const inactive = await get('/api/v1/admin/me', staff.authorization.slice(7));
      expect(inactive.statusCode).toBe(403);
      expect(inactive.json().message).toBe('Admin account is inactive');
    });
  });

  it('lists every auth route in the OpenAPI document', async () => {
    const doc = (await get('/api/docs/json')).json() as { paths: Record<string, unknown> };
    for (const p of [
      '/api/v1/auth/signup',
      '/api/v1/auth/login',
      '/api/v1/auth/logout',
      '/api/v1/auth/refresh',
      '/api/v1/auth/session',
      '/api/v1/auth/google/start',
      '/api/v1/auth/google/callback',
      '/api/v1/auth/redirect-result',
      '/api/v1/config',
      '/api/v1/admin/me',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
  });
});
