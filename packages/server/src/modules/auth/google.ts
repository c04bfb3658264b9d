import { type Clock, Messages, MINUTE, normalizeEmail } from '@fmk/core';
import * as oidc from 'openid-client';
import type { Db } from '../../db/index.ts';
import type { Config } from '../../platform/config.ts';
import { notFound } from '../../platform/errors.ts';
import { EmailBannedError, type IdentityService } from '../identity/service.ts';
import * as repo from './repo.ts';
import type { AuthService } from './service.ts';

/** An OAuth flow (state, PKCE verifier, nonce) is good for one callback within 10 minutes. */
export const OAUTH_FLOW_TTL_MS = 10 * MINUTE;
export const GOOGLE_NOT_CONFIGURED = 'Google sign-in is not configured';
export const CALLBACK_PATH = '/api/v1/auth/google/callback';

/** Where the browser lands after the provider: the web app's /auth screen reads one of these. */
export const authScreen = {
  result: (code: string) => `/auth?result=${encodeURIComponent(code)}`,
  error: (message: string) => `/auth?error=${encodeURIComponent(message)}`,
};

/** A refusal the person should read (a ban, a disabled account) rather than the generic failure. */
class ShownError extends Error {}

/**
 * Google sign-in through OpenID Connect (authorization code + PKCE + nonce) against a configurable
 * issuer; tests use a local mock provider. The issuer's metadata is discovered once, lazily.
 */
export class GoogleSignIn {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly deps: { config: Config; clock: Clock },
    private readonly identity: IdentityService,
    private readonly auth: AuthService,
  ) {}

  get enabled(): boolean {
    return this.deps.config.oidc !== null;
  }

  private get redirectUri(): string {
    return `${this.deps.config.publicUrl}${CALLBACK_PATH}`;
  }

  private client(): Promise<oidc.Configuration> {
    const settings = this.deps.config.oidc;
    if (!settings) throw notFound(GOOGLE_NOT_CONFIGURED);
    this.configuration ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        // A plain-http issuer is only a local mock provider (tests, development).
        ...(settings.issuer.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((err: unknown) => {
        this.configuration = null; // try discovery again next time
        throw err;
      });
    return this.configuration;
  }

  /**
   * Starts a flow: remembers state, PKCE verifier and nonce, and returns the provider's URL. The
   * browser navigates here, so a provider that cannot be reached sends it back to /auth with the
   * generic message rather than to a JSON error page.
   */
  async start(db: Db, log: (err: unknown) => void): Promise<string> {
    if (!this.enabled) throw notFound(GOOGLE_NOT_CONFIGURED);
    try {
      return await this.authorizationUrl(db);
    } catch (err) {
      log(err);
      return authScreen.error(Messages.loginFailed);
    }
  }

  private async authorizationUrl(db: Db): Promise<string> {
    const client = await this.client();
    const now = this.deps.clock.now();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await repo.deleteOauthFlowsBefore(db, new Date(now.getTime() - OAUTH_FLOW_TTL_MS));
    await repo.insertOauthFlow(db, { state, codeVerifier, nonce, now });
    const url = oidc.buildAuthorizationUrl(client, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return url.href;
  }

  /**
   * Finishes a flow and returns where to send the browser: `/auth?result=CODE` on success,
   * `/auth?error=…` otherwise (the ban notice when banned, else 'Login failed. Please try again.').
   */
  async callback(db: Db, query: string, host: string, log: (err: unknown) => void): Promise<string> {
    if (!this.enabled) throw notFound(GOOGLE_NOT_CONFIGURED);
    try {
      const userId = await this.finish(db, query, host);
      return authScreen.result(await this.auth.createRedirectResult(db, userId));
    } catch (err) {
      if (err instanceof EmailBannedError || err instanceof ShownError) return authScreen.error(err.message);
      log(err);
      return authScreen.error(Messages.loginFailed);
    }
  }

  private async finish(db: Db, query: string, host: string): Promise<string> {
    const params = new URLSearchParams(query);
    const state = params.get('state');
    if (!state) throw new Error('callback without state');
    const flow = await repo.takeOauthFlow(db, state);
    const now = this.deps.clock.now();
    if (!flow || now.getTime() - flow.created_at.getTime() > OAUTH_FLOW_TTL_MS) throw new Error('unknown or expired OAuth state');
    const client = await this.client();
    const tokens = await oidc.authorizationCodeGrant(client, new URL(`${this.redirectUri}?${params}`), {
      pkceCodeVerifier: flow.code_verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims?.sub || typeof claims.email !== 'string' || claims.email_verified !== true) {
      throw new Error('ID token without a verified email');
    }
    const email = normalizeEmail(claims.email);
    const userId = await this.findOrCreate(db, claims.sub, email, host);
    await this.auth.assertCanSignIn(db, userId, email).catch((err: unknown) => {
      if (err instanceof EmailBannedError) throw err;
      if (err instanceof Error) throw new ShownError(err.message);
      throw err;
    });
    await this.identity.ensureAnonymousId(db, userId);
    return userId;
  }

  /** By Google subject, else by (verified) email — linking the account — else a new user. */
  private async findOrCreate(db: Db, sub: string, email: string, host: string): Promise<string> {
    const bySub = await this.identity.userByGoogleSub(db, sub);
    if (bySub) return bySub.id;
    const byEmail = await this.identity.userByEmail(db, email);
    if (byEmail) {
      if (byEmail.google_sub && byEmail.google_sub !== sub) throw new Error('email linked to another Google account');
      await this.identity.linkGoogle(db, byEmail.id, sub);
      return byEmail.id;
    }
    const user = await this.identity.createUser(db, { email, passwordHash: null, googleSub: sub, source: 'google', host });
    return user.id;
  }
}
