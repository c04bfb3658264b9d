import {
  adminSubscriptionsPageSchema,
  adminSubscriptionsQuery,
  apiErrorSchema,
  financialQuery,
  financialSchema,
  planPatch,
  planRecordSchema,
  plansSchema,
} from '@fmk/core';
import { z } from 'zod';
import type { AppDeps, ZodFastify } from '../../platform/module.ts';
import { staffBy } from '../../platform/staff-gate.ts';
import { financial } from './finance.ts';
import { editPlan, listPlans, plansOnSale } from './plans.ts';
import { staffSubscriptions } from './repo/staff.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * The plans: on sale to members (GET /plans, open: the plan screens show today's price), and
 * to staff with every plan, on sale or not, to edit (subscriptions/pricing). The staff gate in
 * front of /admin routes checks each one's permission from core's ADMIN_ROUTES.
 */
export async function planRoutes(app: ZodFastify, deps: Pick<AppDeps, 'db' | 'clock'>): Promise<void> {
  app.get(
    '/plans',
    {
      schema: { tags: ['billing'], summary: 'The plans on sale, with their prices and features', response: { 200: plansSchema } },
    },
    async () => ({ plans: await plansOnSale(deps.db) }),
  );
  app.get(
    '/admin/plans',
    {
      schema: {
        tags: ['admin', 'billing'],
        summary: 'Every plan, on sale or not',
        ...secured,
        response: { 200: plansSchema, ...errors },
      },
    },
    async () => ({ plans: await listPlans(deps.db) }),
  );
  app.patch(
    '/admin/plans/:id',
    {
      schema: {
        tags: ['admin', 'billing'],
        summary: 'Edit a plan: price, features, on sale (new subscriptions only)',
        ...secured,
        params: idParams,
        body: planPatch,
        response: { 200: planRecordSchema, ...errors },
      },
    },
    async (req) => editPlan(deps.db, req.params.id, req.body, deps.clock.now(), staffBy(req)),
  );
  app.get(
    '/admin/subscriptions',
    {
      schema: {
        tags: ['admin', 'billing'],
        summary: 'Subscriptions: search by member, filter by status and plan, paged; counts by status',
        ...secured,
        querystring: adminSubscriptionsQuery,
        response: { 200: adminSubscriptionsPageSchema, ...errors },
      },
    },
    async (req) => staffSubscriptions(deps.db, req.query),
  );
  app.get(
    '/admin/financial',
    {
      schema: {
        tags: ['admin', 'billing'],
        summary: 'MRR, revenue by day and plan, churn by month, and the revenue forecast with its method',
        ...secured,
        querystring: financialQuery,
        response: { 200: financialSchema, ...errors },
      },
    },
    async (req) => financial(deps.db, req.query, deps.clock.now()),
  );
}
