import { apiErrorSchema, blockedUserSchema } from '@fmk/core';
import { z } from 'zod';
import { authUser, requireAuth } from '../../platform/auth.ts';
import type { Module } from '../../platform/module.ts';
import { SafetyService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['safety'];

/** Blocking (issue 5 item 4): block, unblock and the blocked-users list. */
export const safetyModule: Module = async (app, deps) => {
  const safety = new SafetyService(deps);

  app.post(
    '/users/:id/block',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'Block a user: our conversation and match are deleted', ...secured, params: idParams },
    },
    async (req, reply) => {
      await safety.block(authUser(req).userId, req.params.id);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/users/:id/block',
    { preHandler: requireAuth, schema: { tags, summary: 'Unblock a user', ...secured, params: idParams } },
    async (req, reply) => {
      await safety.unblock(authUser(req).userId, req.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/me/blocked',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Users I blocked',
        ...secured,
        response: { 200: z.array(blockedUserSchema), '4xx': apiErrorSchema },
      },
    },
    async (req) => safety.listBlocked(authUser(req).userId),
  );
};
