import { apiErrorSchema, settingsPatchBody, settingsSchema } from '@fmk/core';
import { actorOf } from '../../platform/access.ts';
import { requireAuth } from '../../platform/auth.ts';
import type { Module } from '../../platform/module.ts';
import { SettingsService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const tags = ['settings'];

/** The settings store: privacy, notifications per kind and channel, the five safety groups. */
export const settingsModule: Module = async (app, deps) => {
  const settings = new SettingsService({ db: deps.db, clock: deps.clock, bus: deps.bus });
  const auth = { preHandler: requireAuth };

  app.get(
    '/me/settings',
    { ...auth, schema: { tags, summary: 'My settings', ...secured, response: { 200: settingsSchema, ...errors } } },
    async (req) => settings.get(await actorOf(req, deps.db)),
  );
  app.patch(
    '/me/settings',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Change some of my settings (any part of any group)',
        ...secured,
        body: settingsPatchBody,
        response: { 200: settingsSchema, ...errors },
      },
    },
    async (req) => settings.update(await actorOf(req, deps.db), req.body),
  );
};
