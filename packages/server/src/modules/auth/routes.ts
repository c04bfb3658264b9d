import {
  apiErrorSchema,
  authResultSchema,
  publicConfigSchema,
  redirectResultBody,
  sessionInfoSchema,
  signInBody,
  signUpBody,
  tokenCheckSchema,
} from '@fmk/core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser, requireAuth } from '../../platform/auth.ts';
import { SESSION_ENDED } from '../../platform/bus.ts';
import type { Module } from '../../platform/module.ts';
import type { ClientMeta } from '../../platform/sessions/repo.ts';
import { AccountService } from '../account/service.ts';
import { IdentityService } from '../identity/service.ts';
import { GoogleSignIn } from './google.ts';
import { AuthService } from './service.ts';
import { sessionRoutes } from './sessions.ts';

// Under inject (tests) req.ip can be undefined: fall back so a session's ip and the sign-in limit's key are never empty.
const meta = (req: FastifyRequest): ClientMeta => ({ ip: req.ip || 'unknown', userAgent: req.headers['user-agent'] ?? null });

const errors = { '4xx': apiErrorSchema };
const redirect = z.null().describe('Redirect (Location header)');
const bearer = [{ bearer: [] }];

/** Sign-up, sign-in (email and Google), sessions, and the public configuration. */
export const authModule: Module = async (app, deps) => {
  const identity = new IdentityService({ config: deps.config, clock: deps.clock });
  const auth = new AuthService(deps, identity);
  const google = new GoogleSignIn(deps, identity, auth);
  const account = new AccountService(deps, identity);
  const { db } = deps;

  app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account with email and password',
        body: signUpBody,
        response: { 201: authResultSchema, ...errors },
      },
    },
    async (req, reply) => {
      const result = await auth.signUp(db, { ...req.body, host: req.hostname }, meta(req));
      // The new address gets its confirmation link (queued: the answer does not wait for it).
      await account.sendVerification(db, result.user.uid);
      return reply.code(201).send(result);
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        body: signInBody,
        response: { 200: authResultSchema, ...errors },
      },
    },
    async (req) => auth.login(db, req.body, meta(req)),
  );

  app.post(
    '/auth/logout',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['auth'],
        summary: 'Sign out: revoke this session',
        security: bearer,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const a = authUser(req);
      await auth.logout(db, a);
      // The session's open live sockets close too, on every instance (live/routes.ts).
      await deps.bus.publish([a.userId], { type: SESSION_ENDED, sessionId: a.sessionId });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/refresh',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['auth'],
        summary: 'A fresh access token for this session',
        security: bearer,
        response: { 200: authResultSchema, ...errors },
      },
    },
    async (req) => auth.refresh(db, authUser(req)),
  );

  app.get(
    '/auth/check',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['auth'],
        summary: "Whether this token's session is live, and when the token expires (no user record: the cheap check)",
        security: bearer,
        response: { 200: tokenCheckSchema, ...errors },
      },
    },
    async (req) => ({ expiresAt: authUser(req).expiresAt.toISOString() }),
  );

  app.get(
    '/auth/session',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user and token expiry',
        security: bearer,
        response: { 200: sessionInfoSchema, ...errors },
      },
    },
    async (req) => {
      const a = authUser(req);
      return { user: await auth.me(db, a.userId), expiresAt: a.expiresAt.toISOString() };
    },
  );

  app.get(
    '/auth/google/start',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start Google sign-in (redirects to the provider)',
        response: { 302: redirect, ...errors },
      },
    },
    async (req, reply) =>
      reply.redirect(await google.start(db, (err) => req.log.error({ err }, 'google sign-in start failed')), 302),
  );

  app.get(
    '/auth/google/callback',
    {
      schema: {
        tags: ['auth'],
        summary: 'Provider callback: redirects to /auth?result=CODE or /auth?error=MESSAGE',
        // Loose on purpose: any bad callback ends on the sign-in screen with a message, not a 400.
        querystring: z.object({ code: z.string().optional(), state: z.string().optional() }).passthrough(),
        response: { 302: redirect, ...errors },
      },
    },
    async (req, reply) => {
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const location = await google.callback(db, query, req.hostname, (err) => req.log.warn({ err }, 'google sign-in failed'));
      return reply.redirect(location, 302);
    },
  );

  app.post(
    '/auth/redirect-result',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange the one-time code of a redirect sign-in for a session',
        body: redirectResultBody,
        response: { 200: authResultSchema, ...errors },
      },
    },
    async (req) => auth.redeemRedirectResult(db, req.body.code, meta(req)),
  );

  app.get(
    '/config',
    { schema: { tags: ['system'], summary: 'What this server offers the web app', response: { 200: publicConfigSchema } } },
    async (req) => ({
      googleEnabled: google.enabled,
      vapidPublicKey: deps.push.publicKey,
      beta: { eligible: await identity.betaEligible(db, req.hostname) },
    }),
  );

  sessionRoutes(app, deps);
};
