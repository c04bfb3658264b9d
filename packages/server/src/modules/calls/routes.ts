import {
  type Actor,
  acceptCallBody,
  apiErrorSchema,
  type Call,
  callSchema,
  iceConfigSchema,
  signalBody,
  startCallBody,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { requireAuth } from '../../platform/auth.ts';
import { IntervalJob } from '../../platform/jobs.ts';
import type { Module } from '../../platform/module.ts';
import { CallsService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['calls'];

/** Video and voice calls (contract in core's calls.ts). The server signals; media goes peer to peer. */
export const callsModule: Module = async (app, deps) => {
  const calls = new CallsService({ ...deps, log: app.log });
  // Best effort (each ringing call also has its own timeout): a failed sweep only warns.
  const sweep = new IntervalJob(() => calls.sweep(), {
    name: 'call sweep',
    log: app.log,
    level: 'warn',
    everyMs: deps.config.calls.sweepMs,
  });
  sweep.start();
  app.addHook('preClose', async () => {
    await sweep.stop();
    calls.stop();
  });

  app.get(
    '/calls/ice-servers',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'STUN/TURN servers for a call, with short-lived TURN credentials',
        ...secured,
        response: { 200: iceConfigSchema, ...errors },
      },
    },
    async (req) => calls.iceConfig(await actorOf(req, deps.db)),
  );

  app.get(
    '/calls/current',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'My call ringing or in progress, if any',
        ...secured,
        response: { 200: callSchema.nullable(), ...errors },
      },
    },
    async (req) => calls.current(await actorOf(req, deps.db)),
  );

  app.post(
    '/calls',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Call a match or a conversation partner (Premium and Platinum)',
        ...secured,
        body: startCallBody,
        response: { 201: callSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await calls.start(await actorOf(req, deps.db), req.body)),
  );

  app.get(
    '/calls/:id',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'One of my calls', ...secured, params: idParams, response: { 200: callSchema, ...errors } },
    },
    async (req) => calls.get(await actorOf(req, deps.db), req.params.id),
  );

  app.get(
    '/calls/:id/description',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: "The call's latest offer or answer (when its live event came without it)",
        ...secured,
        params: idParams,
        querystring: z.object({ kind: z.enum(['offer', 'answer']) }),
        response: { 200: z.object({ sdp: z.string().nullable() }), ...errors },
      },
    },
    async (req) => calls.description(await actorOf(req, deps.db), req.params.id, req.query.kind),
  );

  const change = (path: string, summary: string, run: (actor: Actor, id: string, device: string) => Promise<Call>) =>
    app.post(
      `/calls/:id/${path}`,
      {
        preHandler: requireAuth,
        schema: {
          tags,
          summary,
          ...secured,
          params: idParams,
          ...(path === 'accept' ? { body: acceptCallBody } : {}),
          response: { 200: callSchema, ...errors },
        },
      },
      async (req) => run(await actorOf(req, deps.db), req.params.id, (req.body as { device?: string } | undefined)?.device ?? ''),
    );
  change('accept', 'Answer a ringing call on this tab', (a, id, device) => calls.accept(a, id, device));
  change('decline', 'Decline a ringing call', (a, id) => calls.decline(a, id));
  change('hangup', 'Hang up (or give up ringing)', (a, id) => calls.hangup(a, id));

  app.post(
    '/calls/:id/signal',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'An offer, answer or ICE candidate for the other party',
        ...secured,
        params: idParams,
        body: signalBody,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await calls.signal(await actorOf(req, deps.db), req.params.id, req.body.device, req.body.signal);
      return reply.status(204).send(null);
    },
  );
};
