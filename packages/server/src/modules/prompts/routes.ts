import { apiErrorSchema, createPromptBody, promptAnalyticsSchema, promptSchema, updatePromptBody } from '@fmk/core';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import type { Module } from '../../platform/module.ts';
import { staffBy } from '../../platform/staff-gate.ts';
import { listActivePrompts, seedStarterPrompts } from './repo.ts';
import { PromptAdminService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };

/**
 * Prompts users answer on their dating profile. Users see active prompts only; admins manage them
 * (spec section 6). Liking an answer is a profiles route: the profile's gate decides who may.
 */
export const promptsModule: Module = async (app, deps) => {
  await seedStarterPrompts(deps.db, deps.clock.now());
  const admin = new PromptAdminService(deps);

  app.get(
    '/prompts',
    {
      preHandler: requireAuth,
      schema: { tags: ['prompts'], summary: 'Active prompts, by category', ...secured, response: { 200: z.array(promptSchema) } },
    },
    async () => listActivePrompts(deps.db),
  );

  const staff = (summary: string) => ({ tags: ['admin', 'prompts'], summary, ...secured });
  const idParams = z.object({ id: z.string().min(1).max(64) });

  app.get(
    '/admin/prompts',
    {
      schema: { ...staff('Every prompt, inactive ones too'), response: { 200: z.array(promptSchema), ...errors } },
    },
    async () => admin.listAll(),
  );
  app.get(
    '/admin/prompts/analytics',
    { schema: { ...staff('Prompt analytics'), response: { 200: promptAnalyticsSchema, ...errors } } },
    async () => admin.analytics(),
  );
  app.post(
    '/admin/prompts',
    {
      schema: { ...staff('Create a prompt'), body: createPromptBody, response: { 201: promptSchema, ...errors } },
    },
    async (req, reply) => reply.status(201).send(await admin.create(req.body, staffBy(req))),
  );
  app.post(
    '/admin/prompts/seed',
    {
      schema: {
        ...staff('Create the ten starter prompts that are missing'),
        response: { 200: z.object({ created: z.number().int() }), ...errors },
      },
    },
    async (req) => admin.seed(staffBy(req)),
  );
  app.patch(
    '/admin/prompts/:id',
    {
      schema: {
        ...staff('Update a prompt'),
        params: idParams,
        body: updatePromptBody,
        response: { 200: promptSchema, ...errors },
      },
    },
    async (req) => admin.update(req.params.id, req.body, staffBy(req)),
  );
  app.delete(
    '/admin/prompts/:id',
    { schema: { ...staff('Delete a prompt and its likes'), params: idParams } },
    async (req, reply) => {
      await admin.delete(req.params.id, staffBy(req));
      return reply.status(204).send();
    },
  );
};
