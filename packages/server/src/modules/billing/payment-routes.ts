import {
  adminPaymentDetailSchema,
  adminPaymentsPageSchema,
  adminPaymentsQuery,
  apiErrorSchema,
  refundAnswerSchema,
  refundBody,
} from '@fmk/core';
import { z } from 'zod';
import type { ZodFastify } from '../../platform/module.ts';
import { staffBy } from '../../platform/staff-gate.ts';
import { listPayments, paymentDetail, refundPayment } from './refunds.ts';
import type { BillingDeps } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const tags = ['admin', 'billing'];
const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Admin payments (spec section 2: payments, refunds through the provider). The staff gate in
 * front of /admin routes checks each one's permission from core's ADMIN_ROUTES: payments.view to
 * read, payments.edit to refund (the owner's by default: the other roles hold payments read-only).
 */
export async function paymentRoutes(app: ZodFastify, deps: BillingDeps): Promise<void> {
  app.get(
    '/admin/payments',
    {
      schema: {
        tags,
        summary: "Payments: search by a member's anonymous id or a payment id, filter by status, plan and days, paged",
        ...secured,
        querystring: adminPaymentsQuery,
        response: { 200: adminPaymentsPageSchema, ...errors },
      },
    },
    async (req) => listPayments(deps.db, req.query),
  );
  app.get(
    '/admin/payments/:id',
    {
      schema: {
        tags,
        summary: 'One payment: the subscription it paid for, its refunds and what is left to refund',
        ...secured,
        params: idParams,
        response: { 200: adminPaymentDetailSchema, ...errors },
      },
    },
    async (req) => paymentDetail(deps.db, req.params.id),
  );
  app.post(
    '/admin/payments/:id/refund',
    {
      schema: {
        tags,
        summary: 'Refund a payment in full or in part through the payment provider (idempotent, audited)',
        ...secured,
        params: idParams,
        body: refundBody,
        response: { 200: refundAnswerSchema, ...errors },
      },
    },
    async (req) => refundPayment(deps, req.params.id, req.body, staffBy(req)),
  );
}
