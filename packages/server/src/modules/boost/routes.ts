import { apiErrorSchema, boostPurchaseBody, boostStatusSchema, paymentAnswerSchema } from '@fmk/core';
import { actorOf } from '../../platform/access.ts';
import { requireAuth } from '../../platform/auth.ts';
import type { Module } from '../../platform/module.ts';
import { BillingService } from '../billing/service.ts';
import { BoostService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const tags = ['boost'];

/** Boost (Platinum): where he stands, start one, buy an extra one. */
export const boostModule: Module = async (app, deps) => {
  const billing = new BillingService({ ...deps, provider: deps.payments });
  const boost = new BoostService({ ...deps, billing });
  const auth = { preHandler: requireAuth };

  app.get(
    '/boost',
    {
      ...auth,
      schema: {
        tags,
        summary: 'My boost: running until when, how many men saw it, included left today, credits',
        ...secured,
        response: { 200: boostStatusSchema, ...errors },
      },
    },
    async (req) => boost.status(await actorOf(req, deps.db)),
  );
  app.post(
    '/boost',
    {
      ...auth,
      schema: {
        tags,
        summary: "Start a 30-minute boost (Platinum): today's included one, else a bought credit",
        ...secured,
        response: { 200: boostStatusSchema, ...errors },
      },
    },
    async (req) => boost.start(await actorOf(req, deps.db)),
  );
  app.post(
    '/boost/purchase',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Buy one extra boost (a one-time payment)',
        ...secured,
        body: boostPurchaseBody,
        response: { 200: paymentAnswerSchema, 402: paymentAnswerSchema, ...errors },
      },
    },
    async (req, reply) => {
      const a = await boost.buy(await actorOf(req, deps.db), req.body);
      return reply.status(a.status).send(a.body);
    },
  );
};
