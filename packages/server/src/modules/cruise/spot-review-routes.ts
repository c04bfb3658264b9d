import {
  adminSpotSchema,
  adminSpotsPageSchema,
  adminSpotsQuery,
  apiErrorSchema,
  idParams,
  spotApproveBody,
  spotEditBody,
  spotRejectBody,
} from '@fmk/core';
import { actorOf } from '../../platform/access.ts';
import type { AppDeps, ZodFastify } from '../../platform/module.ts';
import { staffBy } from '../../platform/staff-gate.ts';
import { SpotReviewService } from './spot-review.ts';

const errors = { '4xx': apiErrorSchema };
const staff = (summary: string) => ({ tags: ['admin', 'cruise'], summary, security: [{ bearer: [] }] });

/**
 * The admin area's locations screens: staff review the spots members propose. Under /admin, so
 * the staff gate (platform/staff-gate.ts) checks a staff session and core's ADMIN_ROUTES
 * permission before each; a member's session never reaches them.
 */
export function spotReviewRoutes(app: ZodFastify, deps: AppDeps): void {
  const review = new SpotReviewService({
    db: deps.db,
    clock: deps.clock,
    map: { tileUrl: deps.config.mapTileUrl, tileAttribution: deps.config.mapTileAttribution },
  });

  app.get(
    '/admin/locations',
    {
      schema: {
        ...staff('Proposed spots by status, searched by name, 50 a page, with the counts by status'),
        querystring: adminSpotsQuery,
        response: { 200: adminSpotsPageSchema, ...errors },
      },
    },
    async (req) => review.list(await actorOf(req, deps.db), req.query),
  );
  app.post(
    '/admin/locations/:id/approve',
    {
      schema: {
        ...staff('Approve a spot: members near it see it (audited)'),
        params: idParams,
        body: spotApproveBody,
        response: { 200: adminSpotSchema, ...errors },
      },
    },
    async (req) => review.review(await actorOf(req, deps.db), req.params.id, 'approve', req.body?.note, staffBy(req)),
  );
  app.post(
    '/admin/locations/:id/reject',
    {
      schema: {
        ...staff('Reject a spot with a note: members no longer see it (audited)'),
        params: idParams,
        body: spotRejectBody,
        response: { 200: adminSpotSchema, ...errors },
      },
    },
    async (req) => review.review(await actorOf(req, deps.db), req.params.id, 'reject', req.body.note, staffBy(req)),
  );
  app.patch(
    '/admin/locations/:id',
    {
      schema: {
        ...staff("Correct a spot's name, kind or description (audited)"),
        params: idParams,
        body: spotEditBody,
        response: { 200: adminSpotSchema, ...errors },
      },
    },
    async (req) => review.edit(await actorOf(req, deps.db), req.params.id, req.body, staffBy(req)),
  );
}
