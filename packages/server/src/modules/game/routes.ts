import { apiErrorSchema, badgesSchema, likesPageSchema, matchSchema, selectionBody, selectionResultSchema } from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { authUser, requireAuth } from '../../platform/auth.ts';
import type { Module } from '../../platform/module.ts';
import { GameService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };

/**
 * The game: fuck / marry / kill selections, matches, who likes you and the Messages
 * badge. Live events (match, super, like) go out on the bus after each commit.
 */
export const gameModule: Module = async (app, deps) => {
  const game = new GameService(deps);

  app.post(
    '/selections',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['game'],
        summary: 'Fuck, marry or kill a user (idempotent by clientId)',
        ...secured,
        body: selectionBody,
        response: { 200: selectionResultSchema, ...errors },
      },
    },
    async (req) => game.select(await actorOf(req, deps.db), req.body),
  );

  app.get(
    '/matches',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['game'],
        summary: 'My matches, newest first',
        ...secured,
        response: { 200: z.array(matchSchema), ...errors },
      },
    },
    async (req) => game.listMatches(await actorOf(req, deps.db)),
  );

  app.get(
    '/likes',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['game'],
        summary: 'Who likes you: pending selections (identities for Premium and Platinum only)',
        ...secured,
        response: { 200: likesPageSchema, ...errors },
      },
    },
    async (req) => game.likes(await actorOf(req, deps.db)),
  );

  app.post(
    '/likes/seen',
    { preHandler: requireAuth, schema: { tags: ['game'], summary: 'Mark my pending selections seen', ...secured } },
    async (req, reply) => {
      await game.markLikesSeen(authUser(req).userId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/badges',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['game'],
        summary: 'The Messages tab badge: unread conversations plus pending matches',
        ...secured,
        response: { 200: badgesSchema, ...errors },
      },
    },
    async (req) => game.badges(authUser(req).userId),
  );
};
