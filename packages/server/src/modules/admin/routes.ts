import { adminMeSchema, apiErrorSchema } from '@fmk/core';
import { actorOf } from '../../platform/access.ts';
import { requireAuth } from '../../platform/auth.ts';
import type { Module } from '../../platform/module.ts';
import { verifyAdmin } from './service.ts';

/** The admin area's entry check; its screens come in later issues. */
export const adminModule: Module = async (app, deps) => {
  app.get(
    '/admin/me',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['admin'],
        summary: "The caller's staff role, or 403 when not an active admin",
        security: [{ bearer: [] }],
        response: { 200: adminMeSchema, '4xx': apiErrorSchema },
      },
    },
    async (req) => verifyAdmin(await actorOf(req, deps.db)),
  );
};
