import { authResultSchema, MINUTE } from '@fmk/core';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { newEmail, PASSWORD, signUp } from '../../../test/factories.ts';
import { DB_KINDS, useTestApp } from '../../../test/harness.ts';
import { IdentityService } from '../identity/service.ts';

// A local OpenID provider, started before the apps so their config can name it.
const provider = new OAuth2Server();
await provider.issuer.keys.generate('RS256');
await provider.start(0, '127.0.0.1');
afterAll(() => provider.stop());

/** Who the provider says signs in next; applied to every token it signs (the id_token included). */
let identity: { sub: string; email: string; email_verified: boolean } | null = null;
provider.service.on('beforeTokenSigning', (token) => {
  if (identity) Object.assign(token.payload, identity);
});

const PUBLIC_URL = 'http://fmk.test';
const CALLBACK = `${PUBLIC_URL}/api/v1/auth/google/callback`;
const LOGIN_FAILED = `/auth?error=${encodeURIComponent('Login failed. Please try again.')}`;

describe.each(DB_KINDS)('Google sign-in on %s', (kind) => {
  const t = useTestApp(kind, {
    env: { OIDC_ISSUER: provider.issuer.url!, OIDC_CLIENT_ID: 'fmk-web', OIDC_CLIENT_SECRET: 'mock-secret', PUBLIC_URL },
  });
  beforeEach(() => {
    identity = null;
  });

  /** The browser's trip: our start → the provider's authorize → back to our callback. Returns our final Location. */
  async function signInWithGoogle(opts: { tamperState?: boolean } = {}): Promise<string> {
    const start = await t().app.inject({ method: 'GET', url: '/api/v1/auth/google/start' });
    expect(start.statusCode).toBe(302);
    const authorize = new URL(start.headers.location as string);
    const atProvider = await fetch(authorize, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    const back = new URL(atProvider.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    if (opts.tamperState) back.searchParams.set('state', 'forged-state-value');
    const callback = await t().app.inject({ method: 'GET', url: `/api/v1/auth/google/callback${back.search}` });
    expect(callback.statusCode).toBe(302);
    return callback.headers.location as string;
  }

  const redeem = (code: string) => t().app.inject({ method: 'POST', url: '/api/v1/auth/redirect-result', payload: { code } });
  const resultCode = (location: string) => {
    const m = /^\/auth\?result=([A-Za-z0-9_-]+)$/.exec(location);
    if (!m) throw new Error(`expected a result redirect, got ${location}`);
    return m[1]!;
  };

  it('advertises Google in GET /config', async () => {
    expect((await t().app.inject({ method: 'GET', url: '/api/v1/config' })).json().googleEnabled).toBe(true);
  });

  it('redirects to the provider with state, nonce, PKCE and the configured callback', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/auth/google/start' });
    const url = new URL(res.headers.location as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'fmk-web',
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toBeTruthy();
    const flow = await t()
      .db.selectFrom('oauth_flows')
      .selectAll()
      .where('state', '=', url.searchParams.get('state')!)
      .executeTakeFirst();
    expect(flow?.nonce).toBe(url.searchParams.get('nonce'));
  });

  it('signs a new person up end to end, and the result code works once', async () => {
    const email = newEmail('google');
    identity = { sub: `google-${email}`, email: email.toUpperCase(), email_verified: true };
    const code = resultCode(await signInWithGoogle());
    const res = await redeem(code);
    expect(res.statusCode).toBe(200);
    const body = authResultSchema.parse(res.json());
    expect(body.user).toMatchObject({ email, onboardingComplete: false, age: 18 });
    expect(body.user.anonymousId).toMatch(/^anon_[a-z0-9]{12}$/);
    const session = await t().app.inject({
      method: 'GET',
      url: '/api/v1/auth/session',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(session.statusCode).toBe(200);
    const row = await t()
      .db.selectFrom('users')
      .select(['google_sub', 'password_hash'])
      .where('id', '=', body.user.uid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ google_sub: `google-${email}`, password_hash: null });
    const mapping = await t()
      .db.selectFrom('identity_mappings')
      .selectAll()
      .where('id', '=', body.user.anonymousId)
      .executeTakeFirstOrThrow();
    expect(mapping.registration_source).toBe('google');

    const again = await redeem(code);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Login failed. Please try again.');

    // The same Google account next time signs in to the same user.
    const second = await redeem(resultCode(await signInWithGoogle()));
    expect(second.json().user.uid).toBe(body.user.uid);
  });

  it('links a Google sign-in to an existing email account', async () => {
    const a = await signUp(t().app);
    identity = { sub: `google-link-${a.user.uid}`, email: a.user.email, email_verified: true };
    const res = await redeem(resultCode(await signInWithGoogle()));
    expect(res.json().user.uid).toBe(a.user.uid);
    // The password still works too.
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: a.user.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  it('expires an unused result code after 2 minutes', async () => {
    identity = { sub: 'google-expiry', email: newEmail('google'), email_verified: true };
    const code = resultCode(await signInWithGoogle());
    t().clock.advance(2 * MINUTE + 1000);
    expect((await redeem(code)).statusCode).toBe(400);
  });

  it('sends a banned email back to /auth with the ban notice, and creates no user', async () => {
    const email = newEmail('banned');
    await new IdentityService({ config: t().config, clock: t().clock }).banEmail(t().db, {
      email,
      adminId: 'admin-1',
      reason: 'spam',
      permanent: true,
    });
    identity = { sub: 'google-banned', email, email_verified: true };
    const location = await signInWithGoogle();
    expect(location).toBe(`/auth?error=${encodeURIComponent('Your email is permanently banned. Reason: spam')}`);
    expect(await t().db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('fails a forged, reused or stale state, and an unverified email, with the generic message', async () => {
    identity = { sub: 'google-state', email: newEmail('google'), email_verified: true };
    expect(await signInWithGoogle({ tamperState: true })).toBe(LOGIN_FAILED);

    // Reuse: the same callback URL twice.
    const start = await t().app.inject({ method: 'GET', url: '/api/v1/auth/google/start' });
    const back = new URL((await fetch(start.headers.location as string, { redirect: 'manual' })).headers.get('location')!);
    const first = await t().app.inject({ method: 'GET', url: `/api/v1/auth/google/callback${back.search}` });
    expect(first.headers.location).toMatch(/^\/auth\?result=/);
    const replay = await t().app.inject({ method: 'GET', url: `/api/v1/auth/google/callback${back.search}` });
    expect(replay.headers.location).toBe(LOGIN_FAILED);

    // Stale: more than 10 minutes between start and callback.
    const start2 = await t().app.inject({ method: 'GET', url: '/api/v1/auth/google/start' });
    const back2 = new URL((await fetch(start2.headers.location as string, { redirect: 'manual' })).headers.get('location')!);
    t().clock.advance(11 * MINUTE);
    const stale = await t().app.inject({ method: 'GET', url: `/api/v1/auth/google/callback${back2.search}` });
    expect(stale.headers.location).toBe(LOGIN_FAILED);

    identity = { sub: 'google-unverified', email: newEmail('google'), email_verified: false };
    expect(await signInWithGoogle()).toBe(LOGIN_FAILED);

    const bare = await t().app.inject({ method: 'GET', url: '/api/v1/auth/google/callback' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe(LOGIN_FAILED);
  });
});

describe.each(DB_KINDS)('Google sign-in with an unreachable provider on %s', (kind) => {
  const t = useTestApp(kind, {
    env: { OIDC_ISSUER: 'http://127.0.0.1:9/', OIDC_CLIENT_ID: 'fmk-web', OIDC_CLIENT_SECRET: 'mock-secret', PUBLIC_URL },
  });

  it('sends the browser back to /auth with the generic message, writing no flow', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/auth/google/start' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(LOGIN_FAILED);
    expect(await t().db.selectFrom('oauth_flows').selectAll().execute()).toEqual([]);
  });
});
