import { apiErrorSchema, emailConfirmedSchema, linkTokenBody } from '@fmk/core';
import { z } from 'zod';
import { authUser, requireAuth } from '../../platform/auth.ts';
import type { Module } from '../../platform/module.ts';
import { IdentityService } from '../identity/service.ts';
import { AccountService } from './service.ts';

const errors = { '4xx': apiErrorSchema };
const bearer = [{ bearer: [] }];

/** The account's mailed flows: confirming the email address. */
export const accountModule: Module = async (app, deps) => {
  const account = new AccountService(deps, new IdentityService({ config: deps.config, clock: deps.clock }));
  const { db } = deps;

  app.post(
    '/auth/verify',
    {
      schema: {
        tags: ['account'],
        summary: 'Open a confirmation link: confirms the address it was mailed to (400 unknown, 410 expired or used)',
        body: linkTokenBody,
        response: { 200: emailConfirmedSchema, ...errors },
      },
    },
    async (req) => account.confirmEmail(db, req.body.token),
  );

  app.post(
    '/auth/verify/resend',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['account'],
        summary: 'Mail a new confirmation link to my address (3 an hour)',
        security: bearer,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await account.resendVerification(db, authUser(req).userId);
      return reply.code(204).send(null);
    },
  );
};
