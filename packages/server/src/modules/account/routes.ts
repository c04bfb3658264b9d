import {
  AccountMessages,
  accountNoticeSchema,
  apiErrorSchema,
  changeEmailBody,
  changePasswordBody,
  emailConfirmedSchema,
  forgotPasswordBody,
  linkTokenBody,
  meSchema,
  passwordResetSchema,
  phoneStatusSchema,
  resetPasswordBody,
  setPhoneBody,
  verifyPhoneBody,
} from '@fmk/core';
import { z } from 'zod';
import { authUser, requireAuth } from '../../platform/auth.ts';
import type { Module } from '../../platform/module.ts';
import { IdentityService } from '../identity/service.ts';
import { registerDataRoutes } from './data/routes.ts';
import { PhoneService } from './phone.ts';
import { AccountService } from './service.ts';

const errors = { '4xx': apiErrorSchema };
const bearer = [{ bearer: [] }];

/**
 * The account's flows: confirming and changing the email address, resetting and changing the
 * password, verifying the phone number, downloading the account's data and deleting it (data/).
 */
export const accountModule: Module = async (app, deps) => {
  const identity = new IdentityService({ config: deps.config, clock: deps.clock });
  const account = new AccountService(deps, identity);
  const phone = new PhoneService({ config: deps.config, clock: deps.clock, sms: deps.sms, log: app.log });
  const { db } = deps;
  await registerDataRoutes(app, deps, { identity, account });

  app.post(
    '/auth/verify',
    {
      schema: {
        tags: ['account'],
        summary:
          "Open a confirmation link: confirms the address it was mailed to, or makes a new address the account's (400 unknown, 410 expired or used)",
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
  app.post(
    '/auth/password/forgot',
    {
      schema: {
        tags: ['account'],
        summary: 'Mail a password reset link (30 min) to the address, if it has an account: the same answer either way',
        body: forgotPasswordBody,
        response: { 202: accountNoticeSchema, ...errors },
      },
    },
    async (req, reply) => {
      // Under inject (tests) req.ip can be undefined: fall back so the rate limit's key is never empty.
      await account.requestPasswordReset(db, req.body.email, req.ip || 'unknown');
      return reply.code(202).send({ message: AccountMessages.resetRequested });
    },
  );

  app.post(
    '/auth/password/reset',
    {
      schema: {
        tags: ['account'],
        summary: 'Open a reset link with a new password: every session of the account ends (400 unknown, 410 expired or used)',
        body: resetPasswordBody,
        response: { 200: passwordResetSchema, ...errors },
      },
    },
    async (req) => account.resetPassword(db, req.body.token, req.body.password),
  );

  app.post(
    '/auth/password/change',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['account'],
        summary: 'Change my password (needs the current one): my other sessions end',
        security: bearer,
        body: changePasswordBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await account.changePassword(db, authUser(req), req.body.currentPassword, req.body.newPassword);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/auth/email/change',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['account'],
        summary: 'Change my email (needs the password): the new address waits until its mailed link is opened',
        security: bearer,
        body: changeEmailBody,
        response: { 200: meSchema, ...errors },
      },
    },
    async (req) => account.requestEmailChange(db, authUser(req), req.body.email, req.body.password),
  );

  app.post(
    '/auth/email/cancel',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['account'],
        summary: 'Drop my change of email still waiting for its link',
        security: bearer,
        response: { 200: meSchema, ...errors },
      },
    },
    async (req) => account.cancelEmailChange(db, authUser(req).userId),
  );

  app.get(
    '/me/phone',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['account'],
        summary: 'My phone number, whether it is verified, and the code waiting for it (only ever answered to me)',
        security: bearer,
        response: { 200: phoneStatusSchema, ...errors },
      },
    },
    async (req) => phone.status(db, authUser(req).userId),
  );

  app.post(
    '/me/phone',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['account'],
        summary:
          'Text a 6-digit code (10 min, 5 tries) to this E.164 number and make it mine, unverified until the code comes back; the same number again resends (a minute apart; 3 texts an hour per number, 5 per account)',
        security: bearer,
        body: setPhoneBody,
        response: { 200: phoneStatusSchema, ...errors },
      },
    },
    async (req) => phone.sendCode(db, authUser(req).userId, req.body.phone),
  );

  app.post(
    '/me/phone/verify',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['account'],
        summary:
          'Type the texted code back: verifies my number (400 wrong, 410 expired or spent, 409 verified on another account)',
        security: bearer,
        body: verifyPhoneBody,
        response: { 200: phoneStatusSchema, ...errors },
      },
    },
    async (req) => phone.verify(db, authUser(req).userId, req.body.code),
  );

  app.delete(
    '/me/phone',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['account'],
        summary: 'Remove my phone number (and with it the verified badge)',
        security: bearer,
        response: { 200: phoneStatusSchema, ...errors },
      },
    },
    async (req) => phone.remove(db, authUser(req).userId),
  );
};
