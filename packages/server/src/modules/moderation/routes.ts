import {
  apiErrorSchema,
  moderationDecisionBody,
  moderationItemSchema,
  moderationListQuery,
  moderationPageSchema,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import type { Module } from '../../platform/module.ts';
import { staffBy } from '../../platform/staff-gate.ts';
import { ModerationService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const tags = ['admin', 'moderation'];
const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Photo moderation's staff queue: the items the model or the text rules flagged, and
 * approve / reject. Scoring itself runs in platform/moderation, after each upload.
 */
export const moderationModule: Module = async (app, deps) => {
  const moderation = new ModerationService(deps);
  // Staff routes: the staff gate (platform/staff-gate.ts) checks each against core's ADMIN_ROUTES.
  const staffOnly = {};

  app.get(
    '/admin/moderation/items',
    {
      ...staffOnly,
      schema: {
        tags,
        summary:
          'A page of moderation items by status (pending by default): pending oldest first, decided newest first, with the count',
        ...secured,
        querystring: moderationListQuery,
        response: { 200: moderationPageSchema, ...errors },
      },
    },
    async (req) => moderation.list(await actorOf(req, deps.db), req.query.status, req.query.page),
  );
  app.get(
    '/admin/moderation/items/:id/photo',
    {
      ...staffOnly,
      schema: {
        tags,
        summary: "An item's photo (image/webp); a chat photo only when a report holds it as evidence (403 otherwise)",
        ...secured,
        params: idParams,
      },
    },
    async (req, reply) => {
      const bytes = await moderation.photo(await actorOf(req, deps.db), req.params.id);
      return reply
        .header('Content-Type', 'image/webp')
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(bytes);
    },
  );
  app.patch(
    '/admin/moderation/items/:id',
    {
      ...staffOnly,
      schema: {
        tags,
        summary: 'Approve (shows a held photo) or reject (removes the photo) a pending item',
        ...secured,
        params: idParams,
        body: moderationDecisionBody,
        response: { 200: moderationItemSchema, ...errors },
      },
    },
    async (req) => moderation.decide(await actorOf(req, deps.db), req.params.id, req.body.decision, req.body.notes, staffBy(req)),
  );
};
