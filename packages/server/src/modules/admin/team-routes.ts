import {
  adminChallengeSchema,
  adminIdParams,
  apiErrorSchema,
  inviteAcceptBody,
  inviteBody,
  inviteCreatedSchema,
  invitePeekSchema,
  inviteSchema,
  inviteTokenParams,
  staffMemberPatchBody,
  staffMemberSchema,
  userIdParams,
} from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps, ZodFastify } from '../../platform/module.ts';
import type { StaffAuth } from './staff-auth.ts';
import { Team } from './team.ts';
import type { StaffCtx } from './users.ts';

const errors = { '4xx': apiErrorSchema };
const tags = ['admin'];
const security = [{ bearer: [] }];

/** The team screens: members, invites, and the invite's acceptance (open: the invitee is not staff yet). */
export function teamRoutes(
  app: ZodFastify,
  deps: AppDeps,
  auth: StaffAuth,
  ctx: (req: FastifyRequest) => Promise<StaffCtx>,
): void {
  const { db } = deps;
  const team = new Team(deps);
  const done = { 204: z.null(), ...errors };
  app.get(
    '/admin/team/members',
    {
      schema: {
        tags,
        summary: 'Staff members',
        security,
        response: { 200: z.object({ rows: z.array(staffMemberSchema) }), ...errors },
      },
    },
    async () => team.members(db),
  );
  app.patch(
    '/admin/team/members/:userId',
    {
      schema: {
        tags,
        summary: 'Change a member’s role, explicit permissions or activity (rank rule)',
        security,
        params: userIdParams,
        body: staffMemberPatchBody,
        response: done,
      },
    },
    async (req, reply) => {
      await team.update(db, await ctx(req), req.params.userId, req.body);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/admin/team/members/:userId',
    {
      schema: {
        tags,
        summary: 'Revoke a member’s staff access (his staff sessions end)',
        security,
        params: userIdParams,
        response: done,
      },
    },
    async (req, reply) => {
      await team.revoke(db, await ctx(req), req.params.userId);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/admin/team/invites',
    {
      schema: {
        tags,
        summary: 'Invites and their state',
        security,
        response: { 200: z.object({ rows: z.array(inviteSchema) }), ...errors },
      },
    },
    async () => team.invites(db),
  );
  app.post(
    '/admin/team/invites',
    {
      schema: {
        tags,
        summary: 'Invite by email with a role (rank rule, team size limits); mails an expiring link',
        security,
        body: inviteBody,
        response: { 201: inviteCreatedSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await team.invite(db, await ctx(req), req.body)),
  );
  app.delete(
    '/admin/team/invites/:id',
    { schema: { tags, summary: 'Revoke an invite', security, params: adminIdParams, response: done } },
    async (req, reply) => {
      await team.revokeInvite(db, await ctx(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/admin/invites/:token',
    {
      schema: {
        tags,
        summary: 'A live invite, by its link',
        params: inviteTokenParams,
        response: { 200: invitePeekSchema, ...errors },
      },
    },
    async (req) => team.peek(db, req.params.token),
  );
  app.post(
    '/admin/invites/accept',
    {
      schema: {
        tags,
        summary: 'Accept an invite with the member account’s password; then set up the second factor',
        body: inviteAcceptBody,
        response: { 200: adminChallengeSchema, ...errors },
      },
    },
    async (req) => team.accept(db, auth, req.body, req.ip || 'unknown'),
  );
}
