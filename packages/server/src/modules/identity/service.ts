import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  ANON_ID_ATTEMPTS,
  afterBetaJoin,
  type BanRecord,
  type BetaSettings,
  banStatus,
  DEFAULT_DATING_PROFILE,
  DEFAULT_MODE_VISIBILITY,
  DEFAULT_NOW_PROFILE,
  DEFAULT_PREFERENCES,
  DEFAULT_STATS,
  generateAnonymousId,
  isAnonymousId,
  isBetaEligible,
  Messages,
  normalizeEmail,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import { sessionCache } from '../../platform/auth.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import * as repo from './repo.ts';
import {
  type AdminContext,
  type BanInput,
  EmailBannedError,
  type IdentityRecord,
  type IdentityServiceOptions,
  type NewUserInput,
} from './types.ts';

export * from './types.ts';

/** Runs `fn` in a transaction, or inside the caller's one when `db` already is a transaction. */
function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/**
 * Identities, bans and beta admission (spec sections 3 "Identity records", 4 "New user creation"
 * and "Ban", 5, 8). Every method takes the `Db` to work on, which may be a transaction.
 */
export class IdentityService {
  private readonly generateId: () => string;

  constructor(private readonly opts: IdentityServiceOptions) {
    this.generateId = opts.generateId ?? (() => generateAnonymousId((n) => randomBytes(n)));
  }

  private now(): Date {
    return this.opts.clock.now();
  }

  /** Banned-email records are keyed by a keyed hash of the lowercased email (not the email itself). */
  emailHash(email: string): string {
    return createHmac('sha256', this.opts.config.emailHashKey).update(normalizeEmail(email)).digest('hex');
  }

  /** A fresh anonymous id unused by any user or mapping: 10 attempts, then an error (spec section 5). */
  async uniqueAnonymousId(db: Db): Promise<string> {
    for (let i = 0; i < ANON_ID_ATTEMPTS; i++) {
      const id = this.generateId();
      if (isAnonymousId(id) && !(await repo.anonymousIdTaken(db, id))) return id;
    }
    throw new AppError(500, 'id_generation_exhausted', Messages.idGenerationExhausted);
  }

  /**
   * The ban in force for an email, or null. An expired temporary ban is deleted here and its
   * identities are reactivated, so the email is treated as not banned (spec section 4 "Ban").
   */
  async checkBan(db: Db, email: string): Promise<BanRecord | null> {
    const hash = this.emailHash(email);
    const row = await repo.findBan(db, hash);
    if (!row) return null;
    const record: BanRecord = { isPermanent: row.is_permanent, expiresAt: row.expires_at, reason: row.reason };
    const status = banStatus(record, this.now());
    if (status.banned) return status.ban;
    await inTransaction(db, async (trx) => {
      const deleted = await repo.deleteBan(trx, hash);
      if (!deleted) return; // another request lifted it first
      await this.reactivate(trx, deleted.email, deleted.associated_anonymous_ids);
      await repo.writeAudit(trx, {
        adminId: 'system',
        action: 'ban_expired',
        email: deleted.email,
        reason: deleted.reason,
        now: this.now(),
      });
    });
    return null;
  }

  /** The user with this id, if any (active or not). */
  userById(db: Db, id: string): Promise<UserRow | undefined> {
    return repo.findUserById(db, id);
  }

  /** The user registered with this (normalised) email, if any. */
  userByEmail(db: Db, email: string): Promise<UserRow | undefined> {
    return repo.findUserByEmail(db, email);
  }

  /** The user signed in with this Google account (the ID token's subject), if any. */
  userByGoogleSub(db: Db, sub: string): Promise<UserRow | undefined> {
    return repo.findUserByGoogleSub(db, sub);
  }

  /** Links a Google account to an existing user (found by his verified email). */
  async linkGoogle(db: Db, userId: string, sub: string): Promise<void> {
    await repo.setGoogleSub(db, userId, sub, this.now());
  }

  /** Throws EmailBannedError when the email is banned. */
  async assertNotBanned(db: Db, email: string): Promise<void> {
    const ban = await this.checkBan(db, email);
    if (ban) throw new EmailBannedError(ban);
  }

  /**
   * New user creation (spec section 4): the email must not be banned; a beta-eligible sign-up
   * becomes a beta user with lifetime premium; an anonymous identity is created; the record starts
   * with every default of spec section 3. User, settings and mapping are written in one transaction.
   */
  async createUser(db: Db, input: NewUserInput): Promise<UserRow> {
    const email = normalizeEmail(input.email);
    await this.assertNotBanned(db, email);
    try {
      return await inTransaction(db, async (trx) => {
        if (await repo.findUserByEmail(trx, email)) throw conflict(Messages.emailTaken);
        const now = this.now();
        const settings = await repo.lockBetaSettings(trx, now);
        const beta = isBetaEligible(input.host, settings, this.opts.config.betaPrivilegedHosts);
        // Only a place taken in the open beta counts towards maxUsers (and may auto-close it):
        // localhost and the privileged hosts are always eligible and never use up places.
        const alwaysEligible = isBetaEligible(input.host, { ...settings, enabled: false }, this.opts.config.betaPrivilegedHosts);
        const premium = beta && settings.lifetimePremium;
        const anonymousId = await this.uniqueAnonymousId(trx);
        const id = randomUUID();
        const user = await repo.insertUser(trx, {
          id,
          email,
          password_hash: input.passwordHash,
          google_sub: input.googleSub,
          anonymous_id: anonymousId,
          subscription_tier: premium ? 'premium' : 'free',
          is_active: true,
          onboarding_complete: false,
          is_beta_user: beta,
          has_lifetime_premium: premium,
          beta_joined_at: beta ? now : null,
          // Google only signs in with an address it has confirmed; an email sign-up confirms by link.
          email_verified_at: input.source === 'google' ? now : null,
          age: 18,
          interests: '[]',
          intentions: '[]',
          selected_features: '[]',
          tribes: '[]',
          current_mode: 'dating',
          app_mode: 'both',
          preferences: JSON.stringify(DEFAULT_PREFERENCES),
          stats: JSON.stringify(DEFAULT_STATS),
          dating_profile: JSON.stringify(DEFAULT_DATING_PROFILE),
          now_profile: JSON.stringify(DEFAULT_NOW_PROFILE),
          mode_visibility: JSON.stringify(DEFAULT_MODE_VISIBILITY),
          created_at: now,
          updated_at: now,
        });
        await repo.insertDefaultSettings(trx, id, now);
        await repo.insertMapping(trx, { id: anonymousId, email, userId: id, source: input.source, now });
        if (beta && !alwaysEligible) await repo.saveBetaSettings(trx, afterBetaJoin(settings), now);
        return user;
      });
    } catch (err) {
      // Two sign-ups with one email at the same moment: the unique index decides.
      if (isUniqueViolation(err)) throw conflict(Messages.emailTaken);
      throw err;
    }
  }

  /** An existing non-admin user without an anonymous id gets one (spec section 4). Returns the id, or null for staff. */
  async ensureAnonymousId(db: Db, userId: string): Promise<string | null> {
    return inTransaction(db, async (trx) => {
      const user = await repo.lockUser(trx, userId);
      if (!user) throw notFound(Messages.identityNotFound);
      if (user.anonymous_id) return user.anonymous_id;
      const admin = await repo.findAdmin(trx, userId);
      if (admin?.is_active) return null;
      const now = this.now();
      const anonymousId = await this.uniqueAnonymousId(trx);
      await repo.insertMapping(trx, {
        id: anonymousId,
        email: user.email,
        userId,
        source: user.google_sub ? 'google' : 'email',
        now,
      });
      await repo.setAnonymousId(trx, userId, anonymousId, now);
      return anonymousId;
    });
  }

  /**
   * Bans an email permanently or until `expiresAt`: every linked identity and its user become
   * inactive and their sessions are revoked (spec section 4 "Ban"). Re-banning replaces the record.
   * Returns the sessions it ended, so the caller can close their open sockets after the commit.
   */
  async banEmail(db: Db, input: BanInput): Promise<{ userId: string; sessionId: string }[]> {
    const email = normalizeEmail(input.email);
    const reason = input.reason.trim();
    if (!email.includes('@')) throw badRequest('Enter a valid email address.');
    if (!reason) throw badRequest('Give a reason for the ban.');
    const now = this.now();
    const expiresAt = input.permanent ? null : (input.expiresAt ?? null);
    if (!input.permanent && (!expiresAt || expiresAt <= now)) throw badRequest('A temporary ban needs an expiry in the future.');
    const banned = await inTransaction(db, async (trx) => {
      const mappings = await repo.mappingsOfEmail(trx, email);
      const direct = await repo.findUserByEmail(trx, email);
      const userIds = [...new Set([...mappings.map((m) => m.user_id), ...(direct ? [direct.id] : [])])];
      const previous = await repo.findBan(trx, this.emailHash(email));
      const associated = [
        ...new Set([...(previous?.associated_anonymous_ids ?? []), ...mappings.filter((m) => m.is_active).map((m) => m.id)]),
      ];
      const values = {
        email,
        banned_at: now,
        banned_by: input.adminId,
        reason,
        associated_anonymous_ids: JSON.stringify(associated),
        is_permanent: input.permanent,
        expires_at: expiresAt,
      };
      await repo.saveBan(trx, this.emailHash(email), values);
      await repo.setMappingsActive(trx, associated, false, now);
      const ended = await repo.deactivateUsers(trx, userIds, now);
      await repo.writeAudit(trx, {
        adminId: input.adminId,
        action: 'ban_email',
        anonymousId: associated[0] ?? null,
        email,
        reason,
        ip: input.ip ?? null,
        now,
      });
      return { userIds, ended };
    });
    // After the commit: a request in between would have cached the session again.
    sessionCache.forgetUsers(banned.userIds);
    return banned.ended;
  }

  /** Lifts a ban and reactivates the identities it deactivated. */
  async unbanEmail(db: Db, email: string, ctx: AdminContext): Promise<void> {
    const normal = normalizeEmail(email);
    await inTransaction(db, async (trx) => {
      const deleted = await repo.deleteBan(trx, this.emailHash(normal));
      if (!deleted) throw notFound('This email is not banned.');
      await this.reactivate(trx, normal, deleted.associated_anonymous_ids);
      await repo.writeAudit(trx, {
        adminId: ctx.adminId,
        action: 'unban_email',
        anonymousId: deleted.associated_anonymous_ids[0] ?? null,
        email: normal,
        reason: ctx.reason,
        ip: ctx.ip ?? null,
        now: this.now(),
      });
    });
  }

  private async reactivate(db: Db, email: string, anonymousIds: string[]): Promise<void> {
    const now = this.now();
    await repo.setMappingsActive(db, anonymousIds, true, now);
    await repo.reactivateUsers(db, email, anonymousIds, now);
  }

  /**
   * A new anonymous id for a user: the old mapping is deactivated and the new one keeps the old id
   * in its previous list (spec section 4 "Ban").
   */
  async regenerateAnonymousId(db: Db, userId: string, ctx: AdminContext): Promise<string> {
    return inTransaction(db, async (trx) => {
      const current = await repo.findActiveMapping(trx, userId);
      if (!current) throw notFound(Messages.currentIdentityNotFound);
      const now = this.now();
      const next = await this.uniqueAnonymousId(trx);
      await repo.setMappingsActive(trx, [current.id], false, now);
      await repo.insertMapping(trx, {
        id: next,
        email: current.email,
        userId,
        source: current.registration_source,
        previousEmails: current.previous_emails,
        previousIds: [...current.previous_anonymous_ids, current.id],
        now,
      });
      await repo.setAnonymousId(trx, userId, next, now);
      await repo.writeAudit(trx, {
        adminId: ctx.adminId,
        action: 'regenerate_anonymous_id',
        anonymousId: current.id,
        reason: ctx.reason,
        ip: ctx.ip ?? null,
        now,
      });
      return next;
    });
  }

  /** Changes a user's email; a banned address is refused and the old one is kept in the previous list. */
  async changeEmail(db: Db, userId: string, newEmail: string): Promise<void> {
    const email = normalizeEmail(newEmail);
    if (await this.checkBan(db, email)) throw new AppError(403, 'email_banned', Messages.newEmailBanned);
    try {
      await inTransaction(db, async (trx) => {
        const user = await repo.lockUser(trx, userId);
        if (!user) throw notFound(Messages.identityNotFound);
        if (user.email === email) return;
        if (await repo.findUserByEmail(trx, email)) throw conflict(Messages.emailTaken);
        const now = this.now();
        const mapping = await repo.findActiveMapping(trx, userId);
        if (!mapping) throw notFound(Messages.currentIdentityNotFound);
        const previous = mapping.previous_emails.includes(mapping.email)
          ? mapping.previous_emails
          : [...mapping.previous_emails, mapping.email];
        await repo.setMappingEmail(trx, mapping.id, email, previous, now);
        await repo.setUserEmail(trx, userId, email, now);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(Messages.emailTaken);
      throw err;
    }
  }

  /** Anonymous id → identity, for staff; every lookup is written to the audit log (spec section 6). */
  async lookupIdentity(db: Db, anonymousId: string, ctx: AdminContext): Promise<IdentityRecord> {
    const m = isAnonymousId(anonymousId) ? await repo.findMapping(db, anonymousId) : undefined;
    if (!m) throw notFound(Messages.identityNotFound);
    await repo.writeAudit(db, {
      adminId: ctx.adminId,
      action: 'identity_lookup',
      anonymousId,
      email: m.email,
      reason: ctx.reason,
      ip: ctx.ip ?? null,
      now: this.now(),
    });
    return {
      anonymousId: m.id,
      email: m.email,
      userId: m.user_id,
      isActive: m.is_active,
      previousEmails: m.previous_emails,
      previousAnonymousIds: m.previous_anonymous_ids,
      registrationSource: m.registration_source,
      createdAt: m.created_at,
      updatedAt: m.updated_at,
    };
  }

  /** The beta settings (spec section 3), for the admin area. */
  async betaSettings(db: Db): Promise<BetaSettings> {
    return repo.readBetaSettings(db);
  }

  /** Staff change the beta settings; currentCount is kept, the change is audited in the same transaction. */
  async saveBetaSettings(db: Db, next: Omit<BetaSettings, 'currentCount'>, ctx: AdminContext): Promise<BetaSettings> {
    return inTransaction(db, async (trx) => {
      const now = this.now();
      const current = await repo.lockBetaSettings(trx, now);
      const saved = { ...current, ...next, currentCount: current.currentCount };
      await repo.saveBetaSettings(trx, saved, now);
      await repo.writeAudit(trx, { adminId: ctx.adminId, action: 'beta_settings', reason: ctx.reason, ip: ctx.ip ?? null, now });
      return saved;
    });
  }

  /** Whether a sign-up from this host would join the beta now (GET /config). */
  async betaEligible(db: Db, host: string): Promise<boolean> {
    return isBetaEligible(host, await repo.readBetaSettings(db), this.opts.config.betaPrivilegedHosts);
  }

  /** Erasure: what the kept records (bans, audit) held of the account no longer names it. */
  async forgetIdentity(
    db: Db,
    who: { userId: string; anonymousIds: readonly string[]; emails: readonly string[] },
  ): Promise<void> {
    await repo.pseudonymiseRecords(db, who, ERASED);
  }
}

/** What stands in kept records for an erased account or staff member. */
export const ERASED = 'erased';
