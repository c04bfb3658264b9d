import { apiErrorSchema, pushSubscriptionBody } from '@fmk/core';
import { z } from 'zod';
import { authUser, requireAuth } from '../../platform/auth.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Module } from '../../platform/module.ts';
import { validPushEndpoint } from '../../platform/push.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const INVALID_ENDPOINT = 'This push endpoint is not accepted.';

/**
 * Web Push subscriptions: the browser's PushSubscription is stored per user (the
 * spec's fcmToken with tokenUpdated); the client re-PUTs it after 7 days to refresh it.
 */
export const notificationsModule: Module = async (app, deps) => {
  const { push } = deps;

  app.put(
    '/me/push-subscription',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['notifications'],
        summary: 'Store or refresh this browser’s push subscription',
        ...secured,
        body: pushSubscriptionBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      if (!validPushEndpoint(req.body.endpoint, deps.config.env)) throw badRequest(INVALID_ENDPOINT, { endpoint: 'invalid' });
      await push.subscribe(authUser(req).userId, req.body, req.headers['user-agent'] ?? null);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/me/push-subscription',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['notifications'],
        summary: 'Forget this browser’s push subscription',
        ...secured,
        body: pushSubscriptionBody.pick({ endpoint: true }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await push.unsubscribe(authUser(req).userId, req.body.endpoint);
      return reply.code(204).send(null);
    },
  );
};
