import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  type Clock,
  PHONE_CODE_TRIES,
  PHONE_CODE_TTL_MS,
  PHONE_RESEND_WAIT_MS,
  PHONE_SEND_NUMBER_LIMIT,
  PHONE_SEND_USER_LIMIT,
  PhoneMessages,
  type PhoneStatus,
  type RateLimit,
} from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { Config } from '../../platform/config.ts';
import { AppError, badRequest, conflict, tooManyRequests, unauthorized } from '../../platform/errors.ts';
import { SmsError, type SmsProvider } from '../../platform/sms/index.ts';
import * as repo from './repo.ts';

export interface PhoneDeps {
  config: Pick<Config, 'tokenSecret' | 'publicUrl'>;
  clock: Clock;
  /** null: SMS is off, and every call answers so. */
  sms: SmsProvider | null;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/**
 * The key of a number's count of texts (auth_attempts): the number only as a keyed hash, since the
 * count outlives a removed number; erasure forgets it by the same key.
 */
export function phoneCountKey(secret: string, phone: string): string {
  return `sms:phone:${createHmac('sha256', secret).update(`phone-limit\0${phone}`).digest('hex')}`;
}

const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '23505';

/**
 * Verifying the account's phone number with a texted six-digit code. The code is drawn from the
 * CSPRNG and kept only as an HMAC under the server's secret (a bare hash of a million possible
 * codes is undone in a moment), tied to the account and the number. A code works for 10 minutes
 * and 5 tries; texts are limited per number and per account, with a wait between two.
 */
export class PhoneService {
  constructor(private readonly deps: PhoneDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private sms(): SmsProvider {
    if (!this.deps.sms) throw new AppError(503, 'sms_off', PhoneMessages.smsOff);
    return this.deps.sms;
  }

  private hash(userId: string, phone: string, code: string): string {
    return createHmac('sha256', this.deps.config.tokenSecret).update(`phone-code\0${userId}\0${phone}\0${code}`).digest('hex');
  }

  /** Counts one text under `key`; refuses it (429) when the limit is already reached. */
  private async limit(db: Db, key: string, limit: RateLimit): Promise<void> {
    const now = this.now();
    const since = new Date(now.getTime() - limit.windowMs);
    if ((await repo.countRequests(db, key, since)) >= limit.max) throw tooManyRequests(PhoneMessages.tooManyTexts);
    await repo.recordRequest(db, key, now, since);
  }

  async status(db: Db, userId: string): Promise<PhoneStatus> {
    const user = await repo.findPhone(db, userId);
    if (!user) throw unauthorized();
    const code = user.phone_verified_at ? undefined : await repo.findPhoneCode(db, userId);
    const now = this.now();
    const usable = code && code.phone === user.phone_number && code.expires_at > now && code.attempts < PHONE_CODE_TRIES;
    return {
      phone: user.phone_number,
      verified: user.phone_verified_at !== null,
      pending: usable
        ? {
            expiresAt: code.expires_at.toISOString(),
            resendAt: new Date(code.created_at.getTime() + PHONE_RESEND_WAIT_MS).toISOString(),
          }
        : null,
    };
  }

  /**
   * Texts a code to `phone` and makes it the account's number (unverified until the code comes
   * back; the same number again is 'Resend'). Whether another account has verified the number is
   * told only to whoever types its code, so this call reveals nothing about other accounts. The
   * text goes before anything is saved: a number that cannot take it changes nothing.
   */
  async sendCode(db: Db, userId: string, phone: string): Promise<PhoneStatus> {
    const sms = this.sms();
    const user = await repo.findPhone(db, userId);
    if (!user) throw unauthorized();
    if (user.phone_number === phone && user.phone_verified_at) throw conflict(PhoneMessages.alreadyVerified);
    const now = this.now();
    const last = await repo.findPhoneCode(db, userId);
    const wait = last ? last.created_at.getTime() + PHONE_RESEND_WAIT_MS - now.getTime() : 0;
    if (wait > 0) throw tooManyRequests(PhoneMessages.resendWait(Math.ceil(wait / 1000)), wait / 1000);
    await this.limit(db, `sms:user:${userId}`, PHONE_SEND_USER_LIMIT);
    await this.limit(db, phoneCountKey(this.deps.config.tokenSecret, phone), PHONE_SEND_NUMBER_LIMIT);

    const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
    try {
      await sms.send({ to: phone, body: this.body(code) });
    } catch (err) {
      if (err instanceof SmsError && err.failure === 'undeliverable') {
        throw badRequest(PhoneMessages.undeliverable, { phone: PhoneMessages.undeliverable });
      }
      this.deps.log.error({ err }, 'sms delivery failed');
      throw new AppError(503, 'sms_unavailable', PhoneMessages.smsUnavailable);
    }
    await db.transaction().execute((trx) =>
      repo.savePhoneCode(trx, {
        userId,
        phone,
        codeHash: this.hash(userId, phone, code),
        now,
        expiresAt: new Date(now.getTime() + PHONE_CODE_TTL_MS),
      }),
    );
    return this.status(db, userId);
  }

  /**
   * The text: the code first (what a lock screen's preview shows), nothing about the app's
   * purpose, and the WebOTP line (`@host #code`) a phone's browser reads to fill the box itself.
   */
  private body(code: string): string {
    const host = new URL(this.deps.config.publicUrl).host;
    return `${code} is your verification code. It works for 10 minutes. Never share it.\n\n@${host} #${code}`;
  }

  /**
   * Types a code back. Each try is counted before it is checked; the fifth wrong one spends the
   * code. The right one verifies the number, unless another account verified it first.
   */
  async verify(db: Db, userId: string, code: string): Promise<PhoneStatus> {
    this.sms();
    const now = this.now();
    const tried = await repo.takePhoneTry(db, userId, PHONE_CODE_TRIES, now);
    if (!tried) throw await this.whyNoTry(db, userId, now);
    const expected = Buffer.from(tried.code_hash, 'hex');
    const given = Buffer.from(this.hash(userId, tried.phone, code), 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      const left = PHONE_CODE_TRIES - tried.attempts;
      if (left <= 0) throw new AppError(410, 'code_spent', PhoneMessages.codeSpent, { code: PhoneMessages.codeSpent });
      throw new AppError(400, 'wrong_code', PhoneMessages.wrongCode(left), { code: PhoneMessages.wrongCode(left) });
    }
    try {
      await db.transaction().execute(async (trx) => {
        if (await repo.verifiedPhoneOwner(trx, tried.phone, userId)) throw conflict(PhoneMessages.takenNumber);
        if (!(await repo.markPhoneVerified(trx, userId, tried.phone, now))) throw this.noCode();
      });
    } catch (err) {
      // Two accounts typing the codes of one number at once: the unique index lets one through.
      if (isUniqueViolation(err)) throw conflict(PhoneMessages.takenNumber);
      throw err;
    }
    return this.status(db, userId);
  }

  private noCode(): AppError {
    return new AppError(400, 'no_code', PhoneMessages.noCode, { code: PhoneMessages.noCode });
  }

  private async whyNoTry(db: Db, userId: string, now: Date): Promise<AppError> {
    const code = await repo.findPhoneCode(db, userId);
    if (!code) {
      const user = await repo.findPhone(db, userId);
      if (user?.phone_verified_at) return conflict(PhoneMessages.alreadyVerified);
      return user?.phone_number ? this.noCode() : badRequest(PhoneMessages.noNumber);
    }
    if (code.attempts >= PHONE_CODE_TRIES) return new AppError(410, 'code_spent', PhoneMessages.codeSpent);
    if (code.expires_at <= now) return new AppError(410, 'code_expired', PhoneMessages.codeExpired);
    return this.noCode();
  }

  /** Removes the number: the account is no longer verified, a waiting code stops working. */
  async remove(db: Db, userId: string): Promise<PhoneStatus> {
    await repo.removePhone(db, userId, this.now());
    return this.status(db, userId);
  }
}
