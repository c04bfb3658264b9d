import { apiErrorSchema, moderationDecisionBody, moderationItemSchema, moderationListQuery } from '@fmk/core';
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
        summary: 'Moderation items by status (pending by default), oldest first',
        ...secured,
        querystring: moderationListQuery,
        response: { 200: z.array(moderationItemSchema), ...errors },
      },
    },
    async (req) => moderation.list(await actorOf(req, deps.db), req.query.status),
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
