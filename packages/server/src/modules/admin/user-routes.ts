import {
  adminUserDetailSchema,
  adminUsersPageSchema,
  adminUsersQuery,
  anonymousIdResultSchema,
  apiErrorSchema,
  banBody,
  banHashParams,
  bansQuery,
  bansSchema,
  identityLookupBody,
  identityLookupSchema,
  reasonBody,
  tierBody,
} from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps, ZodFastify } from '../../platform/module.ts';
import type { AdminUsers, StaffCtx } from './users.ts';

const errors = { '4xx': apiErrorSchema };
const tags = ['admin'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string().min(1).max(100) });

/** The users screens: search, detail, ban, unban, deactivate, regenerate the anonymous id, tier; bans; identity lookup. */
export function userRoutes(
  app: ZodFastify,
  deps: AppDeps,
  users: AdminUsers,
  ctx: (req: FastifyRequest) => Promise<StaffCtx>,
): void {
  const { db } = deps;
  app.get(
    '/admin/users',
    {
      schema: {
        tags,
        summary: 'Search users by email, anonymous id or name (no email comes back)',
        security,
        querystring: adminUsersQuery,
        response: { 200: adminUsersPageSchema, ...errors },
      },
    },
    async (req) => users.search(db, req.query),
  );
  app.get(
    '/admin/users/:id',
    {
      schema: {
        tags,
        summary: "A user's record as staff see it",
        security,
        params: idParams,
        response: { 200: adminUserDetailSchema, ...errors },
      },
    },
    async (req) => users.detail(db, req.params.id),
  );
  const done = { 204: z.null(), ...errors };
  app.post(
    '/admin/users/:id/ban',
    {
      schema: {
        tags,
        summary: 'Ban his email permanently or until a date; he is signed out at once',
        security,
        params: idParams,
        body: banBody,
        response: done,
      },
    },
    async (req, reply) => {
      await users.ban(db, await ctx(req), req.params.id, req.body);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/admin/users/:id/unban',
    {
      schema: {
        tags,
        summary: 'Lift the ban on his email, with a reason; his account is active again',
        security,
        params: idParams,
        body: reasonBody,
        response: done,
      },
    },
    async (req, reply) => {
      await users.unban(db, await ctx(req), req.params.id, req.body.reason);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/admin/users/:id/deactivate',
    {
      schema: {
        tags,
        summary: 'Deactivate the account (signed out at once)',
        security,
        params: idParams,
        body: reasonBody,
        response: done,
      },
    },
    async (req, reply) => {
      await users.setActive(db, await ctx(req), req.params.id, false, req.body.reason);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/admin/users/:id/reactivate',
    {
      schema: { tags, summary: 'Reactivate a deactivated account', security, params: idParams, body: reasonBody, response: done },
    },
    async (req, reply) => {
      await users.setActive(db, await ctx(req), req.params.id, true, req.body.reason);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/admin/users/:id/anonymous-id',
    {
      schema: {
        tags,
        summary: 'A new anonymous id (the old one kept in the previous list)',
        security,
        params: idParams,
        body: reasonBody,
        response: { 200: anonymousIdResultSchema, ...errors },
      },
    },
    async (req) => users.regenerate(db, await ctx(req), req.params.id, req.body.reason),
  );
  app.post(
    '/admin/users/:id/tier',
    {
      schema: {
        tags,
        summary: 'Change his tier, with a reason: a complimentary subscription until a date (a year by default)',
        security,
        params: idParams,
        body: tierBody,
        response: done,
      },
    },
    async (req, reply) => {
      await users.setTier(db, await ctx(req), req.params.id, req.body);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/admin/identity/lookup',
    {
      schema: {
        tags,
        summary: 'Anonymous id → email, with a reason; audited (the only way staff see an email)',
        security,
        body: identityLookupBody,
        response: { 200: identityLookupSchema, ...errors },
      },
    },
    async (req) => users.lookup(db, await ctx(req), req.body.anonymousId, req.body.reason),
  );
  app.get(
    '/admin/bans',
    {
      schema: {
        tags,
        summary: 'Banned-email records by hash, searched and 50 a page (no email comes back)',
        security,
        querystring: bansQuery,
        response: { 200: bansSchema, ...errors },
      },
    },
    async (req) => users.bans(db, req.query),
  );
  app.delete(
    '/admin/bans/:hash',
    { schema: { tags, summary: 'Lift a ban', security, params: banHashParams, response: done } },
    async (req, reply) => {
      await users.lift(db, await ctx(req), req.params.hash);
      return reply.code(204).send(null);
    },
  );
}
