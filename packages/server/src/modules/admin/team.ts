import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type Actor,
  INVITE_TTL_HOURS,
  type Invite,
  isPermission,
  outranks,
  RANK_TEXT,
  type StaffMember,
  type StaffRole,
  TEAM_LIMIT_TEXT,
  TEAM_LIMITS,
  teamHasRoom,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { writeAudit } from '../../platform/audit/repo.ts';
import { sessionCache } from '../../platform/auth.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../platform/errors.ts';
import type { AppDeps } from '../../platform/module.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import * as repo from './repo/staff.ts';
import type { StaffAuth } from './staff-auth.ts';
import type { StaffCtx } from './users.ts';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
export const INVITE_GONE = 'This invite has expired or was revoked.';
export const INVITE_ACCOUNT = 'Sign up for FMK with this email first, then open the invite again.';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/**
 * The team: members, invites by email with a role and an expiring link, revoking.
 * The rank rule (spec section 5) binds every change: one invites and manages only roles below
 * his own; the team size limits (spec sections 6, 9) count the active staff and live invites
 * each member brought in.
 */
export class Team {
  constructor(private readonly deps: Pick<AppDeps, 'config' | 'clock' | 'mail'>) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  async members(db: Db): Promise<{ rows: StaffMember[] }> {
    const rows = await repo.listStaff(db);
    return {
      rows: rows.map((r) => ({
        userId: r.user_id,
        email: r.email,
        role: r.role,
        permissions: r.permissions ?? null,
        isActive: r.is_active,
        totpEnabled: r.totp_enabled_at !== null,
        lastLogin: iso(r.last_login),
        invitedBy: r.invited_by,
      })),
    };
  }

  private inviteOf(r: Awaited<ReturnType<typeof repo.listInvites>>[number]): Invite {
    const state = r.accepted_at
      ? 'accepted'
      : r.revoked_at
        ? 'revoked'
        : new Date(r.expires_at) <= this.now()
          ? 'expired'
          : 'pending';
    return {
      id: r.id,
      email: r.email,
      role: r.role,
      invitedBy: r.invited_by,
      createdAt: iso(r.created_at)!,
      expiresAt: iso(r.expires_at)!,
      state,
    };
  }

  async invites(db: Db): Promise<{ rows: Invite[] }> {
    return { rows: (await repo.listInvites(db)).map((r) => this.inviteOf(r)) };
  }

  async invite(db: Db, ctx: StaffCtx, body: { email: string; role: StaffRole }) {
    const role = ctx.actor.staff!.role;
    if (!outranks(role, body.role)) throw forbidden(RANK_TEXT, 'rank');
    const now = this.now();
    const token = randomBytes(24).toString('base64url');
    const id = randomUUID();
    await db.transaction().execute(async (trx) => {
      await repo.lockStaff(trx, ctx.actor.id);
      if (!teamHasRoom(role, await repo.countManaged(trx, ctx.actor.id, now)))
        throw forbidden(TEAM_LIMIT_TEXT(TEAM_LIMITS[role] ?? 0), 'team_limit');
      await repo.insertInvite(trx, {
        id,
        email: body.email,
        role: body.role,
        tokenHash: sha256(token),
        invitedBy: ctx.actor.id,
        now,
        expiresAt: new Date(now.getTime() + INVITE_TTL_HOURS * 3_600_000),
      });
      await writeAudit(trx, {
        adminId: ctx.actor.id,
        action: `invite:${body.role}`,
        targetType: 'invite',
        targetId: id,
        email: body.email,
        reason: 'team invite',
        ip: ctx.ip,
        now,
      });
    });
    const link = `${this.deps.config.publicUrl}/admin/invite/${token}`;
    this.deps.mail.send({
      to: body.email,
      subject: 'You are invited to the FMK team',
      text: `You have been invited to join the FMK staff as ${body.role}. Open this link within ${INVITE_TTL_HOURS} hours: ${link}`,
      html: `<p>You have been invited to join the FMK staff as ${body.role}.</p><p><a href="${link}">Accept the invite</a> (good for ${INVITE_TTL_HOURS} hours).</p>`,
    });
    const row = await repo.findInvite(db, id);
    return { ...this.inviteOf(row!), link };
  }

  async revokeInvite(db: Db, ctx: StaffCtx, id: string): Promise<void> {
    const now = this.now();
    await db.transaction().execute(async (trx) => {
      const inv = await repo.findInvite(trx, id);
      if (!inv || inv.accepted_at || inv.revoked_at) throw notFound(INVITE_GONE);
      if (!outranks(ctx.actor.staff!.role, inv.role)) throw forbidden(RANK_TEXT, 'rank');
      await repo.closeInvite(trx, id, 'revoked', now);
      await writeAudit(trx, {
        adminId: ctx.actor.id,
        action: 'invite_revoked',
        targetType: 'invite',
        targetId: id,
        reason: 'team invite revoked',
        ip: ctx.ip,
        now,
      });
    });
  }

  /** A live invite by its link's token. */
  async peek(db: Db, token: string) {
    const inv = await repo.findInviteByToken(db, sha256(token));
    if (!inv || inv.accepted_at || inv.revoked_at || new Date(inv.expires_at) <= this.now()) throw notFound(INVITE_GONE);
    return { email: inv.email, role: inv.role, expiresAt: iso(inv.expires_at)! };
  }

  /**
   * Accepting: the invitee proves he holds the member account of the invited email (its
   * password), becomes staff with the invite's role, and goes on to set up his second factor.
   */
  async accept(db: Db, auth: StaffAuth, body: { token: string; password: string }, ip: string) {
    const now = this.now();
    const userId = await db.transaction().execute(async (trx) => {
      const inv = await repo.findInviteByToken(trx, sha256(body.token), true);
      if (!inv || inv.accepted_at || inv.revoked_at || new Date(inv.expires_at) <= now) throw notFound(INVITE_GONE);
      const user = await repo.findUserByEmail(trx, inv.email);
      if (!user) throw notFound(INVITE_ACCOUNT);
      if (!(await verifyPassword(user.password_hash, body.password))) throw unauthorized('Login failed. Please try again.');
      const existing = await repo.findStaff(trx, user.id);
      if (existing?.is_active) throw conflict('This account is already on the team.');
      await repo.upsertStaff(trx, { userId: user.id, role: inv.role, invitedBy: inv.invited_by });
      await repo.closeInvite(trx, inv.id, 'accepted', now);
      await writeAudit(trx, {
        adminId: user.id,
        action: `invite_accepted:${inv.role}`,
        targetType: 'invite',
        targetId: inv.id,
        reason: 'joined the team',
        ip,
        now,
      });
      return user.id;
    });
    const email = (await repo.findStaff(db, userId))!.email;
    return auth.login(db, { email, password: body.password });
  }

  async update(
    db: Db,
    ctx: StaffCtx,
    userId: string,
    set: { role?: StaffRole; permissions?: string[] | null; isActive?: boolean },
  ) {
    const bad = set.permissions?.filter((p) => !isPermission(p)) ?? [];
    if (bad.length) throw badRequest(`Unknown permission: ${bad.join(', ')}`, { permissions: 'Unknown permission' });
    const mine = ctx.actor.staff!.role;
    const now = this.now();
    await db.transaction().execute(async (trx) => {
      const target = await repo.lockStaff(trx, userId);
      if (!target) throw notFound();
      if (userId === ctx.actor.id || !outranks(mine, target.role) || (set.role && !outranks(mine, set.role)))
        throw forbidden(RANK_TEXT, 'rank');
      await repo.updateStaff(trx, userId, set);
      if (set.isActive === false) await repo.revokeStaffSessions(trx, userId, now);
      await writeAudit(trx, {
        adminId: ctx.actor.id,
        action: 'staff_updated',
        targetType: 'staff',
        targetId: userId,
        reason: JSON.stringify(set),
        ip: ctx.ip,
        now,
      });
    });
    if (set.isActive === false) sessionCache.forgetUsers([userId]);
  }

  async revoke(db: Db, ctx: StaffCtx, userId: string): Promise<void> {
    await this.update(db, ctx, userId, { isActive: false });
  }
}

export type { Actor };
