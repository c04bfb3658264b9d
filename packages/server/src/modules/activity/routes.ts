import {
  activityLogSchema,
  activityStatsSchema,
  apiErrorSchema,
  contactSchema,
  createActivityLogBody,
  createContactBody,
  updateActivityLogBody,
  updateContactBody,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { requireAuth } from '../../platform/auth.ts';
import { readPhotoUpload } from '../../platform/media/upload.ts';
import type { Module } from '../../platform/module.ts';
import { Vault } from '../../platform/vault.ts';
import { ActivityService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['activity'];

/** Contacts and the activity log (contract in core's api-health.ts). Owner only. */
export const activityModule: Module = async (app, deps) => {
  const activity = new ActivityService({
    db: deps.db,
    clock: deps.clock,
    vault: new Vault(deps.config.healthKey, deps.clock),
    storage: deps.storage,
  });
  const auth = { preHandler: requireAuth };
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/activity/contacts',
    {
      ...auth,
      schema: {
        tags,
        summary: 'My contacts, newest first (100)',
        ...secured,
        response: { 200: z.array(contactSchema), ...errors },
      },
    },
    async (req) => activity.listContacts(await actorOf(req, deps.db)),
  );
  app.post(
    '/activity/contacts',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Add a contact',
        ...secured,
        body: createContactBody,
        response: { 201: contactSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await activity.createContact(await actorOf(req, deps.db), req.body)),
  );
  app.patch(
    '/activity/contacts/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Edit a contact',
        ...secured,
        params: idParams,
        body: updateContactBody,
        response: { 200: contactSchema, ...errors },
      },
    },
    async (req) => activity.updateContact(await actorOf(req, deps.db), req.params.id, req.body),
  );
  app.delete(
    '/activity/contacts/:id',
    { ...auth, schema: { tags, summary: 'Delete a contact', ...secured, params: idParams } },
    async (req, reply) => {
      await activity.deleteContact(await actorOf(req, deps.db), req.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/activity/contacts/:id/photo',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Upload a contact\'s photo (multipart "file"); WebP, no metadata, only ever served to you',
        consumes: ['multipart/form-data'],
        ...secured,
        params: idParams,
        response: { 200: contactSchema, ...errors },
      },
    },
    async (req) => {
      const bytes = await readPhotoUpload(app, req, deps.config.maxPhotoBytes);
      return activity.setContactPhoto(await actorOf(req, deps.db), req.params.id, bytes);
    },
  );
  app.get(
    '/activity/contacts/:id/photo',
    { ...auth, schema: { tags, summary: "A contact's photo (image/webp), to its owner only", ...secured, params: idParams } },
    async (req, reply) => {
      const bytes = await activity.contactPhoto(await actorOf(req, deps.db), req.params.id);
      return reply.header('Content-Type', 'image/webp').header('X-Content-Type-Options', 'nosniff').send(bytes);
    },
  );

  app.get(
    '/activity/logs',
    {
      ...auth,
      schema: {
        tags,
        summary: 'My activity log, newest date first (100)',
        ...secured,
        response: { 200: z.array(activityLogSchema), ...errors },
      },
    },
    async (req) => activity.listLogs(await actorOf(req, deps.db)),
  );
  app.post(
    '/activity/logs',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Log an activity',
        ...secured,
        body: createActivityLogBody,
        response: { 201: activityLogSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await activity.createLog(await actorOf(req, deps.db), req.body)),
  );
  app.patch(
    '/activity/logs/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Edit a logged activity',
        ...secured,
        params: idParams,
        body: updateActivityLogBody,
        response: { 200: activityLogSchema, ...errors },
      },
    },
    async (req) => activity.updateLog(await actorOf(req, deps.db), req.params.id, req.body),
  );
  app.delete(
    '/activity/logs/:id',
    { ...auth, schema: { tags, summary: 'Delete a logged activity', ...secured, params: idParams } },
    async (req, reply) => {
      await activity.deleteLog(await actorOf(req, deps.db), req.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/activity/stats',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Activity statistics (spec section 9)',
        ...secured,
        response: { 200: activityStatsSchema, ...errors },
      },
    },
    async (req) => activity.stats(await actorOf(req, deps.db)),
  );
};
