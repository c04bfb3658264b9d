import {
  AccessMessages,
  AUDIT_PAGE,
  adminChallengeSchema,
  adminLoginBody,
  adminMeSchema,
  adminSessionSchema,
  adminVerifyBody,
  apiErrorSchema,
  auditPageSchema,
  auditQuery,
  betaSettingsBody,
  betaSettingsSchema,
  dashboardSchema,
  recoveryCodesSchema,
  systemHealthSchema,
} from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { listAudit, verifyAudit } from '../../platform/audit/repo.ts';
import { authUser } from '../../platform/auth.ts';
import { forbidden } from '../../platform/errors.ts';
import type { Module } from '../../platform/module.ts';
import { IdentityService } from '../identity/service.ts';
import { analyticsRoutes } from './analytics-routes.ts';
import { StaffAuth } from './staff-auth.ts';
import { AdminStats } from './stats.ts';
import { systemHealth } from './system.ts';
import { teamRoutes } from './team-routes.ts';
import { userRoutes } from './user-routes.ts';
import { AdminUsers } from './users.ts';

const errors = { '4xx': apiErrorSchema };
const tags = ['admin'];
const bearer = [{ bearer: [] }];
export const metaOf = (req: FastifyRequest) => ({ ip: req.ip || 'unknown', userAgent: req.headers['user-agent'] ?? null });

/**
 * The staff admin area. Every /admin route is checked before its body by the staff
 * gate (platform/staff-gate.ts) against core's ADMIN_ROUTES; handlers here only call a service.
 */
export const adminModule: Module = async (app, deps) => {
  const { db } = deps;
  const auth = new StaffAuth(deps);
  const users = new AdminUsers(deps);
  const adminStats = new AdminStats(deps);
  const identity = new IdentityService({ config: deps.config, clock: deps.clock });
  const staffCtx = async (req: FastifyRequest) => ({ actor: await actorOf(req, db), ip: metaOf(req).ip });

  app.post(
    '/admin/login',
    {
      schema: {
        tags,
        summary: 'Staff sign-in, first step: credentials, then a second factor',
        body: adminLoginBody,
        response: { 200: adminChallengeSchema, ...errors },
      },
    },
    async (req) => auth.login(db, req.body),
  );
  app.post(
    '/admin/login/verify',
    {
      schema: {
        tags,
        summary: 'Staff sign-in, second step: a TOTP or recovery code; a staff session',
        body: adminVerifyBody,
        response: { 200: adminSessionSchema, ...errors },
      },
    },
    async (req) => auth.verify(db, req.body, metaOf(req)),
  );
  app.post(
    '/admin/logout',
    { schema: { tags, summary: 'End this staff session', security: bearer, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await auth.logout(db, authUser(req), metaOf(req).ip);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/admin/me',
    {
      schema: {
        tags,
        summary: "The caller's staff record (403 'User is not an admin' when none)",
        security: bearer,
        response: { 200: adminMeSchema, ...errors },
      },
    },
    async (req) => {
      const actor = await actorOf(req, db);
      if (!actor.staff) throw forbidden(AccessMessages.notAnAdmin, 'not_admin');
      return auth.me(db, actor.id);
    },
  );
  app.post(
    '/admin/me/recovery-codes',
    {
      schema: {
        tags,
        summary: 'New recovery codes (the old ones stop working)',
        security: bearer,
        response: { 200: recoveryCodesSchema, ...errors },
      },
    },
    async (req) => auth.newRecoveryCodes(db, authUser(req).userId, metaOf(req).ip),
  );

  app.get(
    '/admin/dashboard',
    {
      schema: {
        tags,
        summary: 'Signups, active users, matches, messages, revenue, reports and moderation: today and each of 30 days',
        security: bearer,
        response: { 200: dashboardSchema, ...errors },
      },
    },
    async () => adminStats.dashboard(db),
  );

  app.get(
    '/admin/audit',
    {
      schema: {
        tags,
        summary: 'The audit log, newest first, 100 a page, and whether its hash chain holds',
        security: bearer,
        querystring: auditQuery,
        response: { 200: auditPageSchema, ...errors },
      },
    },
    async (req) => {
      const { page, ...filter } = req.query;
      const [{ rows, total }, chain] = await Promise.all([
        listAudit(db, filter, { limit: AUDIT_PAGE, offset: (page - 1) * AUDIT_PAGE }),
        verifyAudit(db),
      ]);
      return {
        rows: rows.map((r) => ({
          id: String(r.id),
          adminId: r.admin_id,
          adminEmail: r.admin_email ?? null,
          action: r.action,
          targetType: r.target_type,
          targetId: r.target_id,
          anonymousId: r.anonymous_id,
          reason: r.reason,
          ipAddress: r.ip_address,
          createdAt: new Date(r.created_at).toISOString(),
        })),
        total,
        page,
        pageSize: AUDIT_PAGE,
        chain: { ok: chain.ok, rows: chain.rows, brokenAt: chain.ok ? null : chain.brokenAt },
      };
    },
  );
  app.get(
    '/admin/audit/export',
    { schema: { tags, summary: 'The filtered audit log as CSV (up to 10 000 rows)', security: bearer, querystring: auditQuery } },
    async (req, reply) => {
      const { page: _page, ...filter } = req.query;
      const { rows } = await listAudit(db, filter, { limit: 10_000, offset: 0 });
      const cell = (v: unknown) => `"${String(v ?? '').replaceAll('"', '""')}"`;
      const lines = [
        'id,time,admin,action,target_type,target_id,anonymous_id,reason,ip',
        ...rows.map((r) =>
          [
            r.id,
            new Date(r.created_at).toISOString(),
            r.admin_email ?? r.admin_id,
            r.action,
            r.target_type,
            r.target_id,
            r.anonymous_id,
            r.reason,
            r.ip_address,
          ]
            .map(cell)
            .join(','),
        ),
      ];
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .send(`${lines.join('\n')}\n`);
    },
  );

  app.get(
    '/admin/system/settings',
    { schema: { tags, summary: 'The beta settings', security: bearer, response: { 200: betaSettingsSchema, ...errors } } },
    async () => identity.betaSettings(db),
  );
  app.put(
    '/admin/system/settings',
    {
      schema: {
        tags,
        summary: 'Change the beta settings (audited)',
        security: bearer,
        body: betaSettingsBody,
        response: { 200: betaSettingsSchema, ...errors },
      },
    },
    async (req) => {
      const { reason, ...next } = req.body;
      const ctx = await staffCtx(req);
      return identity.saveBetaSettings(db, next, { adminId: ctx.actor.id, reason, ip: ctx.ip });
    },
  );
  app.get(
    '/admin/system/health',
    {
      schema: {
        tags,
        summary: "The server's own figures against the spec's thresholds",
        security: bearer,
        response: { 200: systemHealthSchema, ...errors },
      },
    },
    async () => systemHealth(deps),
  );

  userRoutes(app, deps, users, staffCtx);
  teamRoutes(app, deps, auth, staffCtx);
  analyticsRoutes(app, deps, staffCtx);
};
