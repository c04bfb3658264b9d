import { createHash, randomBytes } from 'node:crypto';
import {
  AccountMessages,
  type Clock,
  EMAIL_CHANGE_LIMIT,
  EMAIL_LINK_TTL_MS,
  type EmailConfirmed,
  FORGOT_PASSWORD_EMAIL_LIMIT,
  FORGOT_PASSWORD_IP_LIMIT,
  type LinkError,
  type Me,
  Messages,
  normalizeEmail,
  PASSWORD_CHECK_LIMIT,
  type RateLimit,
  RESEND_VERIFICATION_LIMIT,
  RESET_LINK_TTL_MS,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { AuthContext } from '../../platform/auth.ts';
import { type Bus, SESSION_ENDED } from '../../platform/bus.ts';
import type { Config } from '../../platform/config.ts';
import { AppError, badRequest, conflict, tooManyRequests, unauthorized } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { revokeUserSessions } from '../../platform/sessions/repo.ts';
import type { Storage } from '../../platform/storage.ts';
import type { IdentityService } from '../identity/service.ts';
import { readMe } from '../profiles/service.ts';
import { confirmEmailMail, confirmNewEmailMail, emailChangedMail, passwordChangedMail, resetPasswordMail } from './mails.ts';
import * as repo from './repo.ts';

export interface AccountDeps {
  config: Pick<Config, 'publicUrl'>;
  clock: Clock;
  mail: Mailer;
  /** Revoked sessions' live sockets close through it, on every instance. */
  bus: Bus;
  /** For the answers that are the person's own record (photo URLs). */
  storage: Storage;
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

const LINK_ERROR: Record<LinkError, { status: number; message: string }> = {
  link_unknown: { status: 400, message: AccountMessages.linkUnknown },
  link_expired: { status: 410, message: AccountMessages.linkExpired },
  link_used: { status: 410, message: AccountMessages.linkUsed },
};
const linkError = (code: LinkError) => new AppError(LINK_ERROR[code].status, code, LINK_ERROR[code].message);

/**
 * The account's flows: confirming the email address, resetting and changing the password. Every
 * link is a random 256-bit token mailed once; only its SHA-256 is stored, so the database alone
 * opens nothing.
 */
export class AccountService {
  constructor(
    private readonly deps: AccountDeps,
    private readonly identity: IdentityService,
  ) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  /**
   * The link's address on the web app. The token rides in the fragment, which browsers never
   * send to a server: it stays out of access logs and Referer headers.
   */
  private url(page: string, token: string): string {
    return `${this.deps.config.publicUrl}${page}#token=${token}`;
  }

  private async issueLink(db: Db, userId: string, purpose: repo.LinkPurpose, email: string, ttlMs: number): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await repo.insertLink(db, {
      tokenHash: sha256(token),
      userId,
      purpose,
      email,
      now,
      expiresAt: new Date(now.getTime() + ttlMs),
    });
    return token;
  }

  /**
   * Uses a link of one of these purposes, or throws why it cannot be used: unknown (never made,
   * or made for another flow), expired, or already used.
   */
  private async useLink(db: Db, token: string, purposes: readonly repo.LinkPurpose[]) {
    const hash = sha256(token);
    const now = this.now();
    const used = await repo.useLink(db, hash, purposes, now);
    if (used) return used;
    const found = await repo.findLink(db, hash);
    if (!found || !purposes.includes(found.purpose)) throw linkError('link_unknown');
    if (found.used_at) throw linkError('link_used');
    throw linkError('link_expired');
  }

  /** Counts one request under `key`; refuses it (429) when the limit is already reached. */
  private async limit(db: Db, key: string, limit: RateLimit): Promise<void> {
    const now = this.now();
    const since = new Date(now.getTime() - limit.windowMs);
    if ((await repo.countRequests(db, key, since)) >= limit.max) throw tooManyRequests(AccountMessages.tooManyRequests);
    await repo.recordRequest(db, key, now, since);
  }

  /** Mails a link confirming the user's address, unless it is confirmed already (sign-up). */
  async sendVerification(db: Db, userId: string): Promise<void> {
    const user = await this.identity.userById(db, userId);
    if (!user || user.email_verified_at) return;
    const token = await this.issueLink(db, user.id, 'verify_email', user.email, EMAIL_LINK_TTL_MS);
    this.deps.mail.send(confirmEmailMail(user.email, this.url('/verify', token)));
  }

  /** 'Resend' on the banner: a fresh link (earlier ones keep working until they expire). */
  async resendVerification(db: Db, userId: string): Promise<void> {
    const user = await this.identity.userById(db, userId);
    if (!user) throw unauthorized();
    if (user.email_verified_at) throw conflict(AccountMessages.alreadyVerified);
    await this.limit(db, `verify:user:${userId}`, RESEND_VERIFICATION_LIMIT);
    await this.sendVerification(db, userId);
  }

  /**
   * Opens a confirmation link. A sign-up's confirms the address it was mailed to, if still the
   * account's; a change of address's makes the new address the account's (the old one kept in the
   * identity's previous emails), if it is still the one waiting and still allowed. One
   * transaction: a link refused at the last step is not spent.
   */
  async confirmEmail(db: Db, token: string): Promise<EmailConfirmed> {
    const done = await db.transaction().execute(async (trx) => {
      const link = await this.useLink(trx, token, ['verify_email', 'change_email']);
      const now = this.now();
      if (link.purpose !== 'change_email') {
        if (!(await repo.markVerified(trx, link.user_id, link.email, now))) {
          throw new AppError(400, 'link_unknown', AccountMessages.linkForOldAddress);
        }
        return { email: link.email, old: null };
      }
      const user = await this.identity.userById(trx, link.user_id);
      if (!user || user.pending_email !== link.email) throw new AppError(400, 'link_unknown', AccountMessages.linkForOldChange);
      // Refuses a banned or taken address (spec section 8), as at the request.
      await this.identity.changeEmail(trx, user.id, link.email);
      await repo.finishEmailChange(trx, user.id, now);
      return { email: link.email, old: user.email };
    });
    // The old address hears of it, in case it was not its owner's doing.
    if (done.old) this.deps.mail.send(emailChangedMail(done.old, done.email));
    return { email: done.email, changed: done.old !== null };
  }

  private async me(db: Db, userId: string): Promise<Me> {
    const me = await readMe(db, userId, this.deps.storage);
    if (!me) throw unauthorized();
    return me;
  }

  /**
   * Changing the email address needs the password. The new address must not be banned or taken,
   * and becomes the account's only when the link mailed to it is opened; until then it waits
   * (pendingEmail) and the account keeps its address. A newer request replaces an older one.
   */
  async requestEmailChange(db: Db, auth: AuthContext, rawEmail: string, password: string): Promise<Me> {
    const user = await this.identity.userById(db, auth.userId);
    if (!user) throw unauthorized();
    await this.checkPassword(db, user.id, user.password_hash, password);
    const email = normalizeEmail(rawEmail);
    if (email === user.email) throw badRequest(AccountMessages.sameEmail, { email: AccountMessages.sameEmail });
    if (await this.identity.checkBan(db, email)) {
      throw new AppError(403, 'email_banned', Messages.newEmailBanned, { email: Messages.newEmailBanned });
    }
    if (await this.identity.userByEmail(db, email)) {
      throw new AppError(409, 'conflict', Messages.emailTaken, { email: Messages.emailTaken });
    }
    await this.limit(db, `email-change:user:${user.id}`, EMAIL_CHANGE_LIMIT);
    const now = this.now();
    const token = await db.transaction().execute(async (trx) => {
      await repo.spendLinks(trx, user.id, 'change_email', now);
      await repo.setPendingEmail(trx, user.id, email, now);
      return this.issueLink(trx, user.id, 'change_email', email, EMAIL_LINK_TTL_MS);
    });
    this.deps.mail.send(confirmNewEmailMail(email, this.url('/verify', token)));
    return this.me(db, user.id);
  }

  /** Drops a change of address still waiting: its link stops working. */
  async cancelEmailChange(db: Db, userId: string): Promise<Me> {
    const now = this.now();
    await db.transaction().execute(async (trx) => {
      await repo.spendLinks(trx, userId, 'change_email', now);
      await repo.setPendingEmail(trx, userId, null, now);
    });
    return this.me(db, userId);
  }

  /** Counts a failed current-password check; refuses every check once the limit is reached. */
  async checkPassword(db: Db, userId: string, stored: string | null, given: string): Promise<void> {
    if (!stored) throw badRequest(AccountMessages.noPasswordYet);
    const key = `password:user:${userId}`;
    const now = this.now();
    const since = new Date(now.getTime() - PASSWORD_CHECK_LIMIT.windowMs);
    if ((await repo.countRequests(db, key, since)) >= PASSWORD_CHECK_LIMIT.max) {
      throw tooManyRequests(AccountMessages.tooManyPasswordChecks);
    }
    if (!(await verifyPassword(stored, given))) {
      await repo.recordRequest(db, key, now, since);
      throw new AppError(400, 'wrong_password', AccountMessages.wrongPassword, {
        currentPassword: AccountMessages.wrongPassword,
      });
    }
  }

  /**
   * The sessions' live sockets close wherever they are connected; the owner is told by mail.
   * After the commit, so a rolled-back change closes nothing.
   */
  private async afterPasswordChange(userId: string, email: string, revoked: readonly string[]): Promise<void> {
    await this.deps.bus.publishBatch(revoked.map((sessionId) => [[userId], { type: SESSION_ENDED, sessionId }] as const));
    this.deps.mail.send(passwordChangedMail(email, `${this.deps.config.publicUrl}/auth?mode=forgot`));
  }

  /**
   * 'Forgot password?'. The answer waits only for the limits, which count the address whether or
   * not it has an account; looking the account up and making the link happen after it (Mailer's
   * sendLater), so the answer says nothing, in its words or its time. A disabled account gets no
   * link (it could not sign in with it).
   */
  async requestPasswordReset(db: Db, rawEmail: string, ip: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    await this.limit(db, `forgot:email:${email}`, FORGOT_PASSWORD_EMAIL_LIMIT);
    await this.limit(db, `forgot:ip:${ip}`, FORGOT_PASSWORD_IP_LIMIT);
    this.deps.mail.sendLater(async () => {
      const user = await this.identity.userByEmail(db, email);
      if (!user?.is_active) return null;
      const token = await this.issueLink(db, user.id, 'reset_password', user.email, RESET_LINK_TTL_MS);
      return resetPasswordMail(user.email, this.url('/reset-password', token));
    });
  }

  /**
   * Opens a reset link with a new password: every session ends (whoever had the account is out),
   * every other reset link is spent, and the address counts as confirmed (the mail reached it).
   */
  async resetPassword(db: Db, token: string, password: string): Promise<{ email: string }> {
    const link = await this.useLink(db, token, ['reset_password']);
    const user = await this.identity.userById(db, link.user_id);
    if (user?.email !== link.email) throw new AppError(400, 'link_unknown', AccountMessages.linkForOldAddress);
    const passwordHash = await hashPassword(password);
    const now = this.now();
    const revoked = await db.transaction().execute(async (trx) => {
      await repo.setPasswordHash(trx, user.id, passwordHash, now);
      await repo.spendLinks(trx, user.id, 'reset_password', now);
      await repo.markVerified(trx, user.id, user.email, now);
      return revokeUserSessions(trx, user.id, now, { keep: null });
    });
    await this.afterPasswordChange(user.id, user.email, revoked);
    return { email: user.email };
  }

  /** Changing the password needs the current one; every other session ends, this one stays. */
  async changePassword(db: Db, auth: AuthContext, current: string, next: string): Promise<void> {
    const user = await this.identity.userById(db, auth.userId);
    if (!user) throw unauthorized();
    await this.checkPassword(db, user.id, user.password_hash, current);
    if (current === next) throw badRequest(AccountMessages.samePassword, { newPassword: AccountMessages.samePassword });
    const passwordHash = await hashPassword(next);
    const now = this.now();
    const revoked = await db.transaction().execute(async (trx) => {
      await repo.setPasswordHash(trx, user.id, passwordHash, now);
      // A reset link mailed before the change must not undo it.
      await repo.spendLinks(trx, user.id, 'reset_password', now);
      return revokeUserSessions(trx, user.id, now, { keep: auth.sessionId });
    });
    await this.afterPasswordChange(user.id, user.email, revoked);
  }
}
