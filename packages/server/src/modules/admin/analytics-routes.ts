import { analyticsExportQuery, analyticsSchema, apiErrorSchema } from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import type { AppDeps, ZodFastify } from '../../platform/module.ts';
import { AdminAnalytics } from './analytics.ts';
import type { StaffCtx } from './users.ts';

const errors = { '4xx': apiErrorSchema };
const tags = ['admin'];
const security = [{ bearer: [] }];

/** Analytics and its CSV export (analytics.view, analytics.export: checked by the staff gate). */
export function analyticsRoutes(app: ZodFastify, deps: AppDeps, staffCtx: (req: FastifyRequest) => Promise<StaffCtx>) {
  const analytics = new AdminAnalytics(deps);
  app.get(
    '/admin/analytics',
    {
      schema: {
        tags,
        summary: 'Retention by weekly sign-up cohort, the funnel to a first message, the mode and tier mix',
        security,
        response: { 200: analyticsSchema, ...errors },
      },
    },
    async () => analytics.read(deps.db),
  );
  app.get(
    '/admin/analytics/export',
    {
      schema: {
        tags,
        summary: 'One part of the analytics as CSV (counts and shares only); the export is audited',
        security,
        querystring: analyticsExportQuery,
      },
    },
    async (req, reply) => {
      const csv = await analytics.export(deps.db, await staffCtx(req), req.query.kind);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="analytics-${req.query.kind}.csv"`)
        .send(csv);
    },
  );
}
