import { createHash, randomBytes } from 'node:crypto';
import { type AuthResult, type Clock, type Me, Messages, MINUTE, normalizeEmail } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { AuthContext, TokenService } from '../../platform/auth.ts';
import type { Config } from '../../platform/config.ts';
import { AppError, badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../../platform/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { type ClientMeta, insertSession, revokeSession } from '../../platform/sessions/repo.ts';
import type { Storage } from '../../platform/storage.ts';
import { EmailBannedError, type IdentityService } from '../identity/service.ts';
import { readMe } from '../profiles/service.ts';
import * as repo from './repo.ts';
import {
  ATTEMPT_WINDOW_MS,
  capWaitMs,
  SIGN_IN_THROTTLE,
  SIGN_UP_WINDOW_MS,
  signUpKeys,
  throttleKeys,
  waitMs,
} from './throttle.ts';

/** A redirect sign-in result is good once, for 2 minutes (the web reads it up to 3 times, 1 s apart). */
export const REDIRECT_RESULT_TTL_MS = 2 * MINUTE;

export const ACCOUNT_DISABLED = 'This account is disabled.';

export interface AuthDeps {
  config: Config;
  clock: Clock;
  tokens: TokenService;
  storage: Storage;
}

// The seed hashes its demo passwords with it.
export { hashPassword };

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Email and password sign-up and sign-in, sessions, and one-time redirect results. */
export class AuthService {
  constructor(
    private readonly deps: AuthDeps,
    private readonly identity: IdentityService,
  ) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  async me(db: Db, userId: string): Promise<Me> {
    const me = await readMe(db, userId, this.deps.storage);
    if (!me) throw unauthorized();
    return me;
  }

  /** A new session (revocable, server-side) and an access token naming it. */
  async startSession(db: Db, userId: string, meta: ClientMeta): Promise<AuthResult> {
    const now = this.now();
    const id = randomToken();
    const expiresAt = new Date(now.getTime() + this.deps.config.sessionTtlDays * 24 * 60 * MINUTE);
    await insertSession(db, { id, userId, now, expiresAt, meta });
    return this.issue(db, userId, id);
  }

  private async issue(db: Db, userId: string, sessionId: string): Promise<AuthResult> {
    const { token, expiresAt } = await this.deps.tokens.issue(userId, sessionId);
    return { token, expiresAt: expiresAt.toISOString(), user: await this.me(db, userId) };
  }

  async signUp(db: Db, input: { email: string; password: string; host: string }, meta: ClientMeta): Promise<AuthResult> {
    await this.countSignUp(db, meta.ip);
    const email = normalizeEmail(input.email);
    // Refuse a banned or taken email before spending ~100 ms on the hash.
    await this.identity.assertNotBanned(db, email);
    if (await this.identity.userByEmail(db, email)) throw conflict(Messages.emailTaken);
    const passwordHash = await hashPassword(input.password);
    const user = await this.identity.createUser(db, { email, passwordHash, googleSub: null, source: 'email', host: input.host });
    return this.startSession(db, user.id, meta);
  }

  /** Counts one sign-up asked from `ip`; refuses it (429) past the hour's limit from there or in all. */
  private async countSignUp(db: Db, ip: string): Promise<void> {
    const now = this.now();
    const since = new Date(now.getTime() - SIGN_UP_WINDOW_MS);
    const keys = signUpKeys(ip);
    const counts = await repo.countFailures(db, [keys.source, keys.global], since);
    const { perSource, global } = this.deps.config.signUpLimits;
    const wait = Math.max(
      capWaitMs(counts.get(keys.source), perSource, SIGN_UP_WINDOW_MS, now),
      capWaitMs(counts.get(keys.global), global, SIGN_UP_WINDOW_MS, now),
    );
    if (wait > 0) throw tooManyRequests(Messages.tooManySignUps, wait / 1000);
    await repo.recordFailures(db, [keys.source, keys.global], now, since);
  }

  /**
   * Email sign-in, throttled by growing delays (throttle.ts says who is slowed and why the owner
   * never is by someone else's failures). The delays are checked before the password so a
   * slowed guesser learns nothing; an unknown email costs the same verify as a wrong password
   * and says the same words.
   */
  async login(db: Db, input: { email: string; password: string }, meta: ClientMeta): Promise<AuthResult> {
    const email = normalizeEmail(input.email);
    const now = this.now();
    const since = new Date(now.getTime() - ATTEMPT_WINDOW_MS);
    const keys = throttleKeys(email, meta.ip);
    const user = await this.identity.userByEmail(db, email);
    const knownSource = user ? await repo.hasSignedInFrom(db, user.id, meta.ip) : false;
    const failures = await repo.countFailures(db, [keys.pair, keys.source, keys.account], since);
    const wait = Math.max(
      waitMs(failures.get(keys.pair), SIGN_IN_THROTTLE.pair, now),
      waitMs(failures.get(keys.source), SIGN_IN_THROTTLE.source, now),
      knownSource ? 0 : waitMs(failures.get(keys.account), SIGN_IN_THROTTLE.account, now),
    );
    if (wait > 0) throw tooManyRequests(Messages.tooManyAttempts, Math.ceil(wait / 1000));
    // An unknown email costs the same verify as a wrong password (verifyPassword).
    const ok = await verifyPassword(user?.password_hash, input.password);
    if (!user?.password_hash || !ok) {
      // A failure at an address the owner uses is his own typo: it never counts against the account.
      const counted = knownSource ? [keys.pair, keys.source] : [keys.pair, keys.source, keys.account];
      await repo.recordFailures(db, counted, now, since);
      throw unauthorized(Messages.invalidCredentials);
    }
    await repo.clearFailures(db, keys.pair);
    await this.assertCanSignIn(db, user.id, user.email);
    await this.identity.ensureAnonymousId(db, user.id);
    return this.startSession(db, user.id, meta);
  }

  /**
   * An inactive account is refused: with the ban notice when its email is banned, otherwise as
   * disabled. An expired ban is lifted by the check itself, which reactivates the account.
   */
  async assertCanSignIn(db: Db, userId: string, email: string): Promise<void> {
    const user = await this.identity.userById(db, userId);
    if (user?.is_active) return;
    const ban = await this.identity.checkBan(db, email);
    if (ban) throw new EmailBannedError(ban);
    const again = await this.identity.userById(db, userId);
    if (!again?.is_active) throw forbidden(ACCOUNT_DISABLED, 'account_disabled');
  }

  async logout(db: Db, auth: AuthContext): Promise<void> {
    await revokeSession(db, auth.sessionId, this.now());
  }

  /** A fresh token for the caller's live session (the request was authenticated, so it is live). */
  async refresh(db: Db, auth: AuthContext): Promise<AuthResult> {
    await repo.touchSession(db, auth.sessionId, this.now());
    return this.issue(db, auth.userId, auth.sessionId);
  }

  /** A one-time code the web app exchanges for a session after a redirect sign-in; only its hash is stored. */
  async createRedirectResult(db: Db, userId: string): Promise<string> {
    const code = randomToken();
    await repo.insertRedirectResult(db, { codeHash: sha256(code), userId, now: this.now() });
    return code;
  }

  async redeemRedirectResult(db: Db, code: string, meta: ClientMeta): Promise<AuthResult> {
    const now = this.now();
    const userId = await repo.redeemRedirectResult(db, sha256(code), now, new Date(now.getTime() - REDIRECT_RESULT_TTL_MS));
    if (!userId) throw new AppError(400, 'invalid_code', Messages.loginFailed);
    const user = await this.identity.userById(db, userId);
    if (!user) throw badRequest(Messages.loginFailed);
    await this.assertCanSignIn(db, user.id, user.email);
    return this.startSession(db, userId, meta);
  }
}
