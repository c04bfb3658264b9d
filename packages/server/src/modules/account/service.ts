import { createHash, randomBytes } from 'node:crypto';
import {
  AccountMessages,
  type Clock,
  EMAIL_LINK_TTL_MS,
  type EmailConfirmed,
  type LinkError,
  type RateLimit,
  RESEND_VERIFICATION_LIMIT,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { Config } from '../../platform/config.ts';
import { AppError, conflict, tooManyRequests, unauthorized } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { IdentityService } from '../identity/service.ts';
import { confirmEmailMail } from './mails.ts';
import * as repo from './repo.ts';

export interface AccountDeps {
  config: Pick<Config, 'publicUrl'>;
  clock: Clock;
  mail: Mailer;
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

const LINK_ERROR: Record<LinkError, { status: number; message: string }> = {
  link_unknown: { status: 400, message: AccountMessages.linkUnknown },
  link_expired: { status: 410, message: AccountMessages.linkExpired },
  link_used: { status: 410, message: AccountMessages.linkUsed },
};
const linkError = (code: LinkError) => new AppError(LINK_ERROR[code].status, code, LINK_ERROR[code].message);

/**
 * The account's mailed flows: confirming the email address. Every link is a random 256-bit
 * token mailed once; only its SHA-256 is stored, so the database alone opens nothing.
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

  /** Opens a confirmation link: the address it was mailed to is confirmed, if still the account's. */
  async confirmEmail(db: Db, token: string): Promise<EmailConfirmed> {
    const link = await this.useLink(db, token, ['verify_email']);
    if (!(await repo.markVerified(db, link.user_id, link.email, this.now()))) {
      throw new AppError(400, 'link_unknown', AccountMessages.linkForOldAddress);
    }
    return { email: link.email };
  }
}
