import {
  addCardBody,
  apiErrorSchema,
  billingSummarySchema,
  cancelSubscriptionBody,
  featureFlagPatch,
  featureFlagSchema,
  featureFlagsSchema,
  featureUseSchema,
  oneTimeBody,
  paymentAnswerSchema,
  paymentMethodSchema,
  subscriptionBody,
  subscriptionListSchema,
  subscriptionSchema,
  updateSubscriptionBody,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { requireAuth } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { editFlag, loadFlags, useFeature } from '../../platform/flags.ts';
import type { Module } from '../../platform/module.ts';
import { SIGNATURE_HEADER, signWebhook } from '../../platform/payments/provider.ts';
import { SandboxProvider } from '../../platform/payments/sandbox.ts';
import { staffBy } from '../../platform/staff-gate.ts';
import { BillingLifecycle } from './lifecycle.ts';
import { paymentRoutes } from './payment-routes.ts';
import { BillingService } from './service.ts';
import { planRoutes } from './staff-routes.ts';
import { billingSummary } from './summary.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const tags = ['billing'];
const idParams = z.object({ id: z.string().min(1).max(64) });
const paid = { 200: paymentAnswerSchema, 402: paymentAnswerSchema, 409: paymentAnswerSchema.or(apiErrorSchema), ...errors };
const cardsSchema = z.object({ cards: z.array(paymentMethodSchema), error: z.string().optional() });

/**
 * Billing: the spec's payment calls (section 7) under /api/v1 with its field names,
 * cards, the payment screen's summary, the provider's webhooks, and the feature flags as the
 * caller's tier sees them. Renewals run by themselves (lifecycle.ts).
 */
export const billingModule: Module = async (app, deps) => {
  const service = new BillingService({ ...deps, provider: deps.payments });
  const lifecycle = new BillingLifecycle({ ...deps, provider: deps.payments, log: app.log }, service);
  const auth = { preHandler: requireAuth };
  const webhookUrl = `${deps.config.publicUrl}/api/v1/billing/webhooks`;
  if (deps.payments instanceof SandboxProvider) {
    const key = deps.config.payments.kind === 'sandbox' ? deps.config.payments.webhookKey : '';
    deps.payments.deliver = async (event) => {
      const raw = JSON.stringify(event);
      await lifecycle.webhook(raw, signWebhook(key, webhookUrl, raw), webhookUrl);
    };
  }
  app.addHook('onReady', async () => lifecycle.start());
  app.addHook('onClose', async () => {
    deps.payments.close();
    await lifecycle.stop();
  });

  app.post(
    '/payments/subscription',
    {
      ...auth,
      schema: {
        tags,
        summary: "Start a subscription: charges the plan's first 30 days",
        ...secured,
        body: subscriptionBody,
        response: paid,
      },
    },
    async (req, reply) => {
      const a = await service.startSubscription(await actorOf(req, deps.db), req.body);
      return reply.status(a.status).send(a.body);
    },
  );
  app.post(
    '/payments/one-time',
    {
      ...auth,
      schema: { tags, summary: 'A one-time payment (Boost and extras)', ...secured, body: oneTimeBody, response: paid },
    },
    async (req, reply) => {
      const a = await service.oneTime(await actorOf(req, deps.db), req.body);
      return reply.status(a.status).send(a.body);
    },
  );
  app.post(
    '/subscriptions/:id/cancel',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Cancel at the period end (default) or now',
        ...secured,
        params: idParams,
        body: cancelSubscriptionBody,
        response: paid,
      },
    },
    async (req, reply) => {
      const a = await service.cancel(await actorOf(req, deps.db), req.params.id, req.body?.atPeriodEnd ?? true);
      return reply.status(a.status).send(a.body);
    },
  );
  app.post(
    '/subscriptions/:id/reactivate',
    { ...auth, schema: { tags, summary: 'Undo a cancellation at period end', ...secured, params: idParams, response: paid } },
    async (req, reply) => {
      const a = await service.reactivate(await actorOf(req, deps.db), req.params.id);
      return reply.status(a.status).send(a.body);
    },
  );
  app.put(
    '/subscriptions/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Change plan (prorated upgrade)',
        ...secured,
        params: idParams,
        body: updateSubscriptionBody,
        response: paid,
      },
    },
    async (req, reply) => {
      const a = await service.update(await actorOf(req, deps.db), req.params.id, req.body);
      return reply.status(a.status).send(a.body);
    },
  );
  app.get(
    '/subscriptions/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'One of your subscriptions',
        ...secured,
        params: idParams,
        response: { 200: subscriptionSchema, ...errors },
      },
    },
    async (req) => service.get(await actorOf(req, deps.db), req.params.id),
  );
  app.get(
    '/customers/:id/subscriptions',
    {
      ...auth,
      schema: {
        tags,
        summary: "Your customer's subscriptions",
        ...secured,
        params: idParams,
        response: { 200: subscriptionListSchema, ...errors },
      },
    },
    async (req) => ({ subscriptions: await service.listForCustomer(await actorOf(req, deps.db), req.params.id) }),
  );
  app.get(
    '/billing',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Plan, cards, payments and payment stats',
        ...secured,
        response: { 200: billingSummarySchema, ...errors },
      },
    },
    async (req) => billingSummary(deps, await actorOf(req, deps.db)),
  );
  app.post(
    '/billing/cards',
    {
      ...auth,
      schema: {
        tags,
        summary: "Save a card from the provider's token",
        ...secured,
        body: addCardBody,
        response: { 200: cardsSchema, 402: cardsSchema, ...errors },
      },
    },
    async (req, reply) => {
      const r = await service.addCard(await actorOf(req, deps.db), req.body.source_id);
      return reply.status(r.status).send({ cards: r.cards, ...(r.error ? { error: r.error } : {}) });
    },
  );
  app.delete(
    '/billing/cards/:id',
    {
      ...auth,
      schema: { tags, summary: 'Remove a card', ...secured, params: idParams, response: { 200: cardsSchema, ...errors } },
    },
    async (req) => ({ cards: await service.removeCard(await actorOf(req, deps.db), req.params.id) }),
  );
  app.post(
    '/billing/cards/:id/default',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Make a card the default',
        ...secured,
        params: idParams,
        response: { 200: cardsSchema, ...errors },
      },
    },
    async (req) => ({ cards: await service.setDefaultCard(await actorOf(req, deps.db), req.params.id) }),
  );

  // The provider's webhooks: the signature covers the raw body, so this scope keeps it a string.
  await app.register(async (hooks) => {
    hooks.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    hooks.post('/billing/webhooks', { schema: { tags, summary: "The payment provider's signed webhooks" } }, async (req) => {
      const sig = req.headers[SIGNATURE_HEADER];
      return lifecycle.webhook(
        typeof req.body === 'string' ? req.body : '',
        typeof sig === 'string' ? sig : undefined,
        webhookUrl,
      );
    });
  });

  await planRoutes(app, deps);
  await paymentRoutes(app, { ...deps, provider: deps.payments });

  // Staff read the flags from their own session (subscriptions.view), to show and edit them.
  app.get(
    '/admin/features',
    {
      schema: {
        tags: ['admin', ...tags],
        summary: 'The feature flags, for staff',
        ...secured,
        response: { 200: featureFlagsSchema, ...errors },
      },
    },
    async () => ({ flags: await loadFlags(deps.db) }),
  );
  app.patch(
    '/admin/features/:id',
    {
      schema: {
        tags: ['admin', ...tags],
        summary: 'Edit a feature flag (owner, super_admin)',
        ...secured,
        params: idParams,
        body: featureFlagPatch,
        response: { 200: featureFlagSchema, ...errors },
      },
    },
    async (req) => editFlag(deps.db, req.params.id, req.body, deps.clock.now(), staffBy(req)),
  );
  app.get(
    '/features',
    { ...auth, schema: { tags, summary: 'The feature flags', ...secured, response: { 200: featureFlagsSchema, ...errors } } },
    async () => ({ flags: await loadFlags(deps.db) }),
  );
  app.post(
    '/features/:id/use',
    {
      ...auth,
      schema: {
        tags,
        summary: "Use a feature once: a free user's daily uses count against its limit",
        ...secured,
        params: idParams,
        response: { 200: featureUseSchema, ...errors },
      },
    },
    async (req) => {
      const actor = await actorOf(req, deps.db);
      return useFeature(
        deps.db,
        { id: actor.id, tier: actor.tier, staff: Boolean(actor.staff?.isActive) },
        req.params.id,
        deps.clock.now(),
      );
    },
  );

  // A movable clock for end-to-end tests only (TEST_CLOCK, refused in production by the config).
  if (deps.config.testClock) {
    app.post(
      '/test/clock',
      {
        schema: {
          tags: ['test'],
          summary: 'Move the clock forward and run due renewals',
          body: z.object({ advanceMs: z.number().int().min(0) }),
        },
      },
      async (req) => {
        const clock = deps.clock as { advance?: (ms: number) => void; now(): Date };
        if (!clock.advance) throw notFound();
        clock.advance(req.body.advanceMs);
        return { now: clock.now().toISOString(), renewed: await lifecycle.runDue() };
      },
    );
  }
};
