import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  AccessMessages,
  type AdminChallenge,
  type AdminMe,
  type AdminSession,
  Messages,
  normalizeEmail,
  RECOVERY_CODE_COUNT,
  STAFF_SESSION_MINUTES,
} from '@fmk/core';
import { generate, generateSecret, generateURI, verify } from 'otplib';
import type { Db } from '../../db/index.ts';
import { writeAudit } from '../../platform/audit/repo.ts';
import { type AuthContext, sessionCache } from '../../platform/auth.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../platform/errors.ts';
import type { AppDeps } from '../../platform/module.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { type ClientMeta, insertSession, revokeSession } from '../../platform/sessions/repo.ts';
import * as repo from './repo/staff.ts';

/** Spec section 8's admin texts. */
export const NOT_IN_COLLECTION = 'Admin user not found in collection';
export const INVALID_CODE = 'That code is not right. Try the current one.';
export const CHALLENGE_EXPIRED = 'Sign in again: this step took too long.';
const CHALLENGE_MS = 5 * 60_000;

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/**
 * Staff sign-in (spec sections 4, 5, 8): email and password (or a linked Google
 * account), an active staff record, then a TOTP code or a recovery code. Only then is a staff
 * session made: separate from the member's sessions, 8 hours long, its token marked staff.
 * Nothing is created when a step fails, so a failed login leaves no session behind.
 */
export class StaffAuth {
  private readonly key: Buffer;
  private readonly sealKey: Buffer;
  constructor(private readonly deps: Pick<AppDeps, 'config' | 'clock' | 'tokens'>) {
    const secret = Buffer.from(deps.config.tokenSecret);
    this.key = Buffer.from(hkdfSync('sha256', secret, 'fmk', 'staff-challenge', 32));
    this.sealKey = Buffer.from(hkdfSync('sha256', secret, 'fmk', 'staff-totp', 32));
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  async login(db: Db, input: { email: string; password?: string; googleUid?: string }): Promise<AdminChallenge> {
    const email = normalizeEmail(input.email);
    const user = await repo.findUserByEmail(db, email);
    const ok =
      input.password !== undefined
        ? await verifyPassword(user?.password_hash, input.password)
        : Boolean(user?.google_sub && input.googleUid && user.google_sub === input.googleUid);
    if (!user || !ok) throw unauthorized(Messages.loginFailed);
    const staff = await repo.findStaff(db, user.id);
    if (!staff) throw forbidden(NOT_IN_COLLECTION, 'not_admin');
    if (!staff.is_active || !user.is_active) throw forbidden(AccessMessages.adminInactive, 'admin_inactive');
    let enroll: AdminChallenge['enroll'] = null;
    if (!staff.totp_enabled_at) {
      const secret = generateSecret();
      await repo.setTotpSecret(db, user.id, this.seal(secret));
      enroll = { secret, uri: generateURI({ issuer: 'FMK Admin', label: email, secret }) };
    }
    return { challenge: this.sign(user.id), enroll };
  }

  async verify(
    db: Db,
    input: { challenge: string; code?: string; recoveryCode?: string },
    meta: ClientMeta,
  ): Promise<AdminSession> {
    const userId = this.open(input.challenge);
    const now = this.now();
    const result = await db.transaction().execute(async (trx) => {
      const row = await repo.lockStaff(trx, userId);
      if (!row?.is_active) throw forbidden(AccessMessages.adminInactive, 'admin_inactive');
      if (!row.totp_secret) throw badRequest(CHALLENGE_EXPIRED);
      let step: number | null = null;
      let codes = row.recovery_codes;
      if (input.code) {
        const epoch = Math.floor(now.getTime() / 1000);
        const r = await verify({ secret: this.unseal(row.totp_secret), token: input.code, epoch, epochTolerance: 30 });
        // A code is good once: a step at or before the last one accepted is refused.
        const matched = r.valid ? Math.floor(epoch / 30) + r.delta : null;
        if (matched === null || (row.totp_last_step !== null && matched <= row.totp_last_step))
          throw badRequest(INVALID_CODE, { code: INVALID_CODE });
        step = matched;
      } else {
        if (!row.totp_enabled_at) throw badRequest(INVALID_CODE, { code: INVALID_CODE });
        const h = sha256(normalizeCode(input.recoveryCode ?? ''));
        if (!codes.includes(h)) throw badRequest(INVALID_CODE, { recoveryCode: INVALID_CODE });
        codes = codes.filter((c) => c !== h);
      }
      const enabling = !row.totp_enabled_at;
      const fresh = enabling ? newRecoveryCodes() : null;
      await repo.markSignedIn(trx, userId, {
        now,
        step,
        enable: enabling,
        recoveryCodes: fresh ? fresh.map((c) => sha256(normalizeCode(c))) : codes,
      });
      const sessionId = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + STAFF_SESSION_MINUTES * 60_000);
      await insertSession(trx, { id: sessionId, userId, kind: 'staff', now, expiresAt, meta });
      await writeAudit(trx, {
        adminId: userId,
        action: input.code ? 'staff_sign_in' : 'staff_sign_in_recovery_code',
        targetType: 'staff',
        targetId: userId,
        reason: enabling ? 'second factor set up' : 'sign-in',
        ip: meta.ip,
        now,
      });
      return { sessionId, fresh };
    });
    const { token, expiresAt } = await this.deps.tokens.issue(userId, result.sessionId, {
      staff: true,
      ttlMinutes: STAFF_SESSION_MINUTES,
    });
    return { token, expiresAt: expiresAt.toISOString(), me: await this.me(db, userId), recoveryCodes: result.fresh };
  }

  /** Ends the staff session; the sign-out is audited as the sign-in is. */
  async logout(db: Db, auth: AuthContext, ip: string): Promise<void> {
    const now = this.now();
    await db.transaction().execute(async (trx) => {
      await revokeSession(trx, auth.sessionId, now);
      await writeAudit(trx, {
        adminId: auth.userId,
        action: 'staff_sign_out',
        targetType: 'staff',
        targetId: auth.userId,
        reason: 'sign-out',
        ip,
        now,
      });
    });
    // Forgotten again after the commit: a request between the first forget and the commit may have cached it.
    sessionCache.forgetSession(auth.sessionId);
  }

  async me(db: Db, userId: string): Promise<AdminMe> {
    const s = await repo.findStaff(db, userId);
    if (!s) throw forbidden(NOT_IN_COLLECTION, 'not_admin');
    return {
      userId: s.user_id,
      email: s.email,
      role: s.role,
      permissions: s.permissions ?? null,
      totpEnabled: s.totp_enabled_at !== null,
      recoveryCodesLeft: s.recovery_codes.length,
    };
  }

  /** New recovery codes for the caller; the old ones stop working. */
  async newRecoveryCodes(db: Db, userId: string, ip: string): Promise<{ recoveryCodes: string[] }> {
    const codes = newRecoveryCodes();
    await db.transaction().execute(async (trx) => {
      await repo.setRecoveryCodes(
        trx,
        userId,
        codes.map((c) => sha256(normalizeCode(c))),
      );
      await writeAudit(trx, {
        adminId: userId,
        action: 'recovery_codes_renewed',
        targetType: 'staff',
        targetId: userId,
        reason: 'own account',
        ip,
        now: this.now(),
      });
    });
    return { recoveryCodes: codes };
  }

  /** The current code for a sealed secret: the CLI and tests use it. */
  static async codeFor(secret: string, at: Date): Promise<string> {
    return generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
  }

  private sign(userId: string): string {
    const body = Buffer.from(JSON.stringify({ u: userId, e: this.now().getTime() + CHALLENGE_MS })).toString('base64url');
    return `${body}.${createHmac('sha256', this.key).update(body).digest('base64url')}`;
  }

  private open(challenge: string): string {
    const [body, mac] = challenge.split('.');
    if (!body || !mac) throw badRequest(CHALLENGE_EXPIRED);
    const expected = createHmac('sha256', this.key).update(body).digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badRequest(CHALLENGE_EXPIRED);
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { u: string; e: number };
    if (claims.e <= this.now().getTime()) throw new AppError(400, 'challenge_expired', CHALLENGE_EXPIRED);
    return claims.u;
  }

  private seal(secret: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const data = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), data]).toString('base64url');
  }

  private unseal(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    const d = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}

const normalizeCode = (c: string) => c.trim().toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
}
