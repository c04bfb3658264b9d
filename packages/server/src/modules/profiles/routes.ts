import {
  apiErrorSchema,
  meSchema,
  modeSwitchBody,
  photoOrderBody,
  photoSchema,
  promptLikeResultSchema,
  publicProfileSchema,
  updateMeBody,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { authUser, requireAuth } from '../../platform/auth.ts';
import { readPhotoUpload } from '../../platform/media/upload.ts';
import type { Module } from '../../platform/module.ts';
import { AnswerLikeService } from './likes.ts';
import { getPublicProfile } from './public.ts';
import { ProfileService } from './service.ts';

const secured = { security: [{ bearer: [] }] };

/**
 * The signed-in user's own profile, mode, onboarding and photos, other users' profiles and likes
 * of their answers (spec sections 2-6).
 */
export const profilesModule: Module = async (app, deps) => {
  const profiles = new ProfileService(deps);
  deps.moderation.handle('profile_photo', profiles.moderationHandler());
  const answerLikes = new AnswerLikeService(deps);

  app.get(
    '/me',
    { preHandler: requireAuth, schema: { tags: ['profiles'], summary: 'My profile', ...secured, response: { 200: meSchema } } },
    async (req) => profiles.getMe(authUser(req).userId),
  );

  app.patch(
    '/me',
    {
      preHandler: requireAuth,
      schema: { tags: ['profiles'], summary: 'Update my profile', ...secured, body: updateMeBody, response: { 200: meSchema } },
    },
    async (req) => profiles.updateMe(authUser(req).userId, req.body),
  );

  app.post(
    '/me/mode',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['profiles'],
        summary: 'Switch my profile mode (dating / now); logged as a mode_switch event',
        ...secured,
        body: modeSwitchBody,
        response: { 200: meSchema },
      },
    },
    async (req) => profiles.switchMode(authUser(req).userId, req.body),
  );

  app.get(
    '/users/:userId',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['profiles'],
        summary: "Another user's profile as the caller may see it (404 when blocked, inactive or unknown)",
        ...secured,
        params: z.object({ userId: z.string().min(1).max(100) }),
        response: { 200: publicProfileSchema, '4xx': apiErrorSchema },
      },
    },
    async (req) => getPublicProfile(deps.db, deps.storage, await actorOf(req, deps.db), req.params.userId, deps.clock.now()),
  );

  const likeParams = z.object({ userId: z.string().min(1).max(100), promptId: z.string().min(1).max(64) });
  for (const method of ['POST', 'DELETE'] as const) {
    app.route({
      method,
      url: '/users/:userId/prompts/:promptId/like',
      preHandler: requireAuth,
      schema: {
        tags: ['prompts'],
        summary: method === 'POST' ? "Like another user's answer to a prompt" : 'Take back a like',
        ...secured,
        params: likeParams,
        response: { 200: promptLikeResultSchema, '4xx': apiErrorSchema },
      },
      handler: async (req) =>
        answerLikes.setLike(await actorOf(req, deps.db), req.params.userId, req.params.promptId, method === 'POST'),
    });
  }

  app.post(
    '/me/onboarding/complete',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['profiles'],
        summary: 'Finish onboarding (400 profile_incomplete lists what is missing)',
        ...secured,
        response: { 200: meSchema },
      },
    },
    async (req) => profiles.completeOnboarding(authUser(req).userId),
  );

  app.post(
    '/me/photos',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['profiles'],
        summary: 'Upload a photo (multipart field "file"); re-encoded to WebP without metadata',
        consumes: ['multipart/form-data'],
        ...secured,
        response: { 201: photoSchema },
      },
    },
    async (req, reply) => {
      const userId = authUser(req).userId;
      const bytes = await readPhotoUpload(app, req, deps.config.maxPhotoBytes);
      const photo = await profiles.addPhoto(userId, bytes);
      return reply.status(201).send(photo);
    },
  );

  app.delete(
    '/me/photos/:photoId',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['profiles'],
        summary: 'Delete one of my photos',
        ...secured,
        params: z.object({ photoId: z.string().min(1).max(100) }),
      },
    },
    async (req, reply) => {
      await profiles.deletePhoto(authUser(req).userId, req.params.photoId);
      return reply.status(204).send();
    },
  );

  app.put(
    '/me/photos/order',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['profiles'],
        summary: 'Reorder my photos (a permutation of them)',
        ...secured,
        body: photoOrderBody,
        response: { 200: meSchema },
      },
    },
    async (req) => profiles.reorderPhotos(authUser(req).userId, req.body.photoIds),
  );
};
