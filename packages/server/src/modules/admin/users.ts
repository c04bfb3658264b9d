import {
  type Actor,
  type AdminUserDetail,
  type AdminUserRow,
  type Dashboard,
  normalizeEmail,
  outranks,
  RANK_TEXT,
  type StaffRole,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { writeAudit } from '../../platform/audit/repo.ts';
import { sessionCache } from '../../platform/auth.ts';
import { withEvents } from '../../platform/bus.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { AppDeps } from '../../platform/module.ts';
import { grantStaffTier } from '../billing/service.ts';
import { IdentityService } from '../identity/service.ts';
import * as repo from './repo/users.ts';

const DAY = 86_400_000;

export interface StaffCtx {
  actor: Actor;
  ip: string;
}

type UserRow = Awaited<ReturnType<typeof repo.searchUsers>>['rows'][number];
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
    const [items, ban] = await Promise.all([repo.moderationItemsOf(db, id), this.identity.checkBan(db, u.email)]);
    return {
      ...toRow(u),
      age: u.age,
      bio: u.bio,
      onboardingComplete: u.onboarding_complete,
      photos: Number(u.photos ?? 0),
      reportsAgainst: Number(u.reports_against ?? 0),
      reportsBy: Number(u.reports_by ?? 0),
      moderationItems: items.map((i) => ({ id: i.id, status: i.status, createdAt: new Date(i.created_at).toISOString() })),
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
    await this.identity.banEmail(db, {
      email: u.email,
      adminId: ctx.actor.id,
      reason: body.reason,
      permanent: !until,
      expiresAt: until,
      ip: ctx.ip,
    });
    await repo.revokeAllSessions(db, u.id, this.now());
    sessionCache.forgetUsers([u.id]);
  }

  async setActive(db: Db, ctx: StaffCtx, id: string, active: boolean, reason: string): Promise<void> {
    const u = await this.target(db, ctx, id);
    await this.audited(db, ctx, u, active ? 'reactivate_user' : 'deactivate_user', reason, async (trx, now) => {
      await repo.setActive(trx, u.id, active, now);
      if (!active) await repo.revokeAllSessions(trx, u.id, now);
    });
    if (!active) sessionCache.forgetUsers([u.id]);
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

  async bans(db: Db) {
    const rows = await repo.listBans(db);
    return {
      rows: rows.map((b) => ({
        hash: b.email_hash,
        reason: b.reason,
        bannedBy: b.banned_by,
        bannedAt: new Date(b.banned_at).toISOString(),
        until: b.expires_at ? new Date(b.expires_at).toISOString() : null,
        isPermanent: b.is_permanent,
        associatedAnonymousIds: b.associated_anonymous_ids,
      })),
    };
  }

  async lift(db: Db, ctx: StaffCtx, hash: string): Promise<void> {
    const ban = await repo.findBanByHash(db, hash);
    if (!ban) throw notFound('This email is not banned.');
    await this.identity.unbanEmail(db, ban.email, { adminId: ctx.actor.id, reason: 'ban lifted', ip: ctx.ip });
  }

  async dashboard(db: Db): Promise<Dashboard> {
    const now = this.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 29 * DAY);
    const [days, totals] = await Promise.all([
      repo.dailyCounts(db, since),
      repo.queueCounts(db, new Date(now.getTime() - 30 * DAY)),
    ]);
    const today = now.toISOString().slice(0, 10);
    const on = (s: { day: string; n: number }[]) => s.find((d) => d.day === today)?.n ?? 0;
    return {
      today: {
        signups: on(days.signups),
        activeUsers: on(days.activeUsers),
        matches: on(days.matches),
        messages: on(days.messages),
        openReports: totals.openReports,
        pendingModeration: totals.pendingModeration,
      },
      days,
      totals,
    };
  }
}
