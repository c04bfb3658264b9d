import { promptSchema } from '@fmk/core';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import type { Module } from '../index.ts';
import { listActivePrompts, seedStarterPrompts } from './repo.ts';

/** Prompts users answer on their dating profile. Users see active prompts only (spec section 6). */
export const promptsModule: Module = async (app, deps) => {
  await seedStarterPrompts(deps.db, deps.clock.now());

  app.get(
    '/prompts',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['prompts'],
        summary: 'Active prompts, by category',
        security: [{ bearer: [] }],
        response: { 200: z.array(promptSchema) },
      },
    },
    async () => listActivePrompts(deps.db),
  );
};
