import {
  type Actor,
  type AdminUserDetail,
  type AdminUserReport,
  type AdminUserRow,
  normalizeEmail,
  outranks,
  RANK_TEXT,
  type StaffRole,
  USER_DETAIL_LIST,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { writeAudit } from '../../platform/audit/repo.ts';
import { sessionCache } from '../../platform/auth.ts';
import { SESSION_ENDED, withEvents } from '../../platform/bus.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { AppDeps } from '../../platform/module.ts';
import { grantStaffTier } from '../billing/service.ts';
import { IdentityService } from '../identity/service.ts';
import * as repo from './repo/users.ts';

export interface StaffCtx {
  actor: Actor;
  ip: string;
}

type UserRow = Awaited<ReturnType<typeof repo.searchUsers>>['rows'][number];
type ReportRow = Awaited<ReturnType<typeof repo.reportsOf>>[number];
const toReport = (r: ReportRow): AdminUserReport => ({
  id: r.id,
  category: r.category,
  reason: r.reason,
  status: r.status,
  createdAt: new Date(r.created_at).toISOString(),
  other: { id: r.other_id, displayName: r.display_name, anonymousId: r.anonymous_id },
});
const toRow = (r: UserRow): AdminUserRow => ({
  id: r.id,
  anonymousId: r.anonymous_id,
  displayName: r.display_name,
  tier: r.subscription_tier,
  isActive: r.is_active,
  staffRole: r.staff_role ?? null,
  createdAt: new Date(r.created_at).toISOString(),
  lastSeen: r.last_seen ? new Date(r.last_seen).toISOString() : null,
});

/**
 * The users screens: search, one user's record, and the actions on him. Each write is
 * refused unless the caller outranks the user (spec section 5: members rank below every staff
 * role) and writes its audit row in the same transaction.
 */
export class AdminUsers {
  private readonly identity: IdentityService;
  constructor(private readonly deps: Pick<AppDeps, 'config' | 'clock' | 'bus'>) {
    this.identity = new IdentityService({ config: deps.config, clock: deps.clock });
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  async search(
    db: Db,
    q: { q?: string; status: 'active' | 'inactive' | 'all'; tier?: 'free' | 'premium' | 'platinum'; page: number },
  ) {
    // An exact email finds its user without the email ever coming back.
    const emailMatch = q.q?.includes('@') ? normalizeEmail(q.q) : undefined;
    const { rows, total } = await repo.searchUsers(db, { ...q, emailMatch }, q.page);
    return { rows: rows.map(toRow), total, page: q.page, pageSize: repo.USERS_PAGE };
  }

  async detail(db: Db, id: string): Promise<AdminUserDetail> {
    const u = await repo.findUser(db, id);
    if (!u) throw notFound();
    const [items, against, by, ban] = await Promise.all([
      repo.moderationItemsOf(db, id, USER_DETAIL_LIST),
      repo.reportsOf(db, id, 'against', USER_DETAIL_LIST),
      repo.reportsOf(db, id, 'by', USER_DETAIL_LIST),
      this.identity.checkBan(db, u.email),
    ]);
    return {
      ...toRow(u),
      age: u.age,
      bio: u.bio,
      onboardingComplete: u.onboarding_complete,
      photos: Number(u.photos ?? 0),
      reportsAgainst: Number(u.reports_against ?? 0),
      reportsBy: Number(u.reports_by ?? 0),
      reports: { against: against.map(toReport), by: by.map(toReport) },
      moderationItems: items.map((i) => ({
        id: i.id,
        status: i.status,
        contentType: i.content_type,
        flaggedReason: i.flagged_reason,
        createdAt: new Date(i.created_at).toISOString(),
      })),
      banned: ban ? { reason: ban.reason, until: ban.expiresAt ? new Date(ban.expiresAt).toISOString() : null } : null,
    };
  }

  /** The user, when the caller outranks him (spec section 5). */
  private async target(db: Db, ctx: StaffCtx, id: string) {
    const u = await repo.findUser(db, id);
    if (!u) throw notFound();
    if (u.id === ctx.actor.id || !outranks(ctx.actor.staff!.role, (u.staff_role as StaffRole | null) ?? null))
      throw forbidden(RANK_TEXT, 'rank');
    return u;
  }

  /** A write on the user and its audit row, in one transaction: no change goes unrecorded. */
  private async audited(
    db: Db,
    ctx: StaffCtx,
    u: { id: string; anonymous_id: string | null },
    action: string,
    reason: string,
    write: (trx: Db, now: Date) => Promise<unknown>,
  ): Promise<void> {
    const now = this.now();
    await db.transaction().execute(async (trx) => {
      await write(trx, now);
      await writeAudit(trx, {
        adminId: ctx.actor.id,
        action,
        targetType: 'user',
        targetId: u.id,
        anonymousId: u.anonymous_id,
        reason,
        ip: ctx.ip,
        now,
      });
    });
  }

  /** Bans his email permanently or until a date: his sessions end at once, and the email cannot sign up again. */
  async ban(db: Db, ctx: StaffCtx, id: string, body: { reason: string; until?: string | null }): Promise<void> {
    const u = await this.target(db, ctx, id);
    const until = body.until ? new Date(body.until) : null;
    const ended = await this.identity.banEmail(db, {
      email: u.email,
      adminId: ctx.actor.id,
      reason: body.reason,
      permanent: !until,
      expiresAt: until,
      ip: ctx.ip,
    });
    const rest = await repo.revokeAllSessions(db, u.id, this.now());
    await this.signedOut([...ended, ...rest.map((sessionId) => ({ userId: u.id, sessionId }))]);
  }

  /** Lifts the ban on his email, with a reason: his identities are active again; audited in the same transaction. */
  async unban(db: Db, ctx: StaffCtx, id: string, reason: string): Promise<void> {
    const u = await this.target(db, ctx, id);
    await this.identity.unbanEmail(db, u.email, { adminId: ctx.actor.id, reason, ip: ctx.ip });
  }

  async setActive(db: Db, ctx: StaffCtx, id: string, active: boolean, reason: string): Promise<void> {
    const u = await this.target(db, ctx, id);
    let revoked: string[] = [];
    await this.audited(db, ctx, u, active ? 'reactivate_user' : 'deactivate_user', reason, async (trx, now) => {
      await repo.setActive(trx, u.id, active, now);
      if (!active) revoked = await repo.revokeAllSessions(trx, u.id, now);
    });
    if (!active) await this.signedOut(revoked.map((sessionId) => ({ userId: u.id, sessionId })));
  }

  /**
   * After the commit: the token cache forgets him and every open socket of the ended sessions is
   * closed (on every instance, through the bus), so a banned or deactivated member is out at once.
   */
  private async signedOut(ended: { userId: string; sessionId: string }[]): Promise<void> {
    sessionCache.forgetUsers([...new Set(ended.map((e) => e.userId))]);
    await this.deps.bus.publishBatch(ended.map((e) => [[e.userId], { type: SESSION_ENDED, sessionId: e.sessionId }] as const));
  }

  async regenerate(db: Db, ctx: StaffCtx, id: string, reason: string): Promise<{ anonymousId: string }> {
    const u = await this.target(db, ctx, id);
    return { anonymousId: await this.identity.regenerateAnonymousId(db, u.id, { adminId: ctx.actor.id, reason, ip: ctx.ip }) };
  }

  /**
   * A tier given by staff goes through billing, the one writer of his tier: a complimentary
   * subscription (or, for free, the end of his staff grants), committed with its audit row; his
   * open tabs hear the new tier. A tier he pays for is not lowered (409 saying so).
   */
  async setTier(
    db: Db,
    ctx: StaffCtx,
    id: string,
    body: { tier: 'free' | 'premium' | 'platinum'; reason: string; until?: string | undefined },
  ): Promise<void> {
    const u = await this.target(db, ctx, id);
    const now = this.now();
    await withEvents(db, this.deps.bus, async (trx, emit) => {
      await grantStaffTier(trx, emit, u.id, body.tier, body.until ? new Date(body.until) : undefined, now);
      await writeAudit(trx, {
        adminId: ctx.actor.id,
        action: `change_tier:${u.subscription_tier}->${body.tier}`,
        targetType: 'user',
        targetId: u.id,
        anonymousId: u.anonymous_id,
        reason: body.until ? `${body.reason} (until ${new Date(body.until).toISOString()})` : body.reason,
        ip: ctx.ip,
        now,
      });
    });
  }

  /** Anonymous id → email: the only way staff see an email; it needs a reason and is audited (spec section 6). */
  async lookup(db: Db, ctx: StaffCtx, anonymousId: string, reason: string) {
    const r = await this.identity.lookupIdentity(db, anonymousId, { adminId: ctx.actor.id, reason, ip: ctx.ip });
    return { anonymousId: r.anonymousId, email: r.email, userId: r.userId, isActive: r.isActive };
  }

  async bans(db: Db, query: { q?: string | undefined; page: number }) {
    // An exact email finds its record by hash; the email never comes back.
    const email = query.q?.includes('@') ? query.q : undefined;
    const { rows, total } = await repo.listBans(
      db,
      email ? { hash: this.identity.emailHash(email) } : { q: query.q },
      query.page,
    );
    return {
      rows: rows.map((b) => ({
        hash: b.email_hash,
        reason: b.reason,
        bannedBy: b.banned_by,
        bannedByName: b.banned_by_name ?? null,
        bannedAt: new Date(b.banned_at).toISOString(),
        until: b.expires_at ? new Date(b.expires_at).toISOString() : null,
        isPermanent: b.is_permanent,
        associatedAnonymousIds: b.associated_anonymous_ids,
      })),
      total,
      page: query.page,
      pageSize: repo.BANS_PAGE,
    };
  }

  async lift(db: Db, ctx: StaffCtx, hash: string): Promise<void> {
    const ban = await repo.findBanByHash(db, hash);
    if (!ban) throw notFound('This email is not banned.');
    await this.identity.unbanEmail(db, ban.email, { adminId: ctx.actor.id, reason: 'ban lifted', ip: ctx.ip });
  }
}
