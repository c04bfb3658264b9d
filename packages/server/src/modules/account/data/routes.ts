import {
  accountNoticeSchema,
  apiErrorSchema,
  DataRightsMessages,
  DELETE_CONFIRM_WORD,
  dataExportParams,
  dataExportSchema,
  dataExportStateSchema,
  deleteAccountBody,
  HOUR,
} from '@fmk/core';
import { z } from 'zod';
import { authUser, requireAuth } from '../../../platform/auth.ts';
import { IntervalJob, runWithApp } from '../../../platform/jobs.ts';
import type { AppDeps, ZodFastify } from '../../../platform/module.ts';
import { Vault } from '../../../platform/vault.ts';
import { HealthService } from '../../health/service.ts';
import type { IdentityService } from '../../identity/service.ts';
import type { AccountService } from '../service.ts';
import { ErasureService } from './erasure.ts';
import { DataExportService } from './export.ts';

const errors = { '4xx': apiErrorSchema };
const bearer = [{ bearer: [] }];
const tags = ['account'];

/** 'Download my data' and 'Delete my account', for the signed-in owner only. */
export async function registerDataRoutes(
  app: ZodFastify,
  deps: AppDeps,
  services: { identity: IdentityService; account: AccountService },
): Promise<DataExportService> {
  const { db, clock, storage } = deps;
  const vault = new Vault(deps.config.healthKey, clock);
  const health = new HealthService({ db, clock, vault, storage });
  const exports = new DataExportService({ db, clock, storage, mail: deps.mail, config: deps.config, health, log: app.log });
  const erasure = new ErasureService({
    db,
    clock,
    storage,
    bus: deps.bus,
    mail: deps.mail,
    config: deps.config,
    health,
    vault,
    ...services,
  });

  // Archives past their day are deleted on every read of their owner's, and hourly for everyone.
  if (deps.config.env !== 'test') {
    runWithApp(app, new IntervalJob(() => exports.expire(), { name: 'export sweep', log: app.log, everyMs: HOUR }));
  }
  app.addHook('onClose', async () => exports.idle());

  app.post(
    '/account/export',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Start building an archive of all my data (one at a time, 3 a day); poll GET /account/export for its progress',
        security: bearer,
        response: { 202: dataExportSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(202).send(await exports.start(authUser(req).userId)),
  );

  app.get(
    '/account/export',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'My newest data archive and its progress, or none',
        security: bearer,
        response: { 200: dataExportStateSchema, ...errors },
      },
    },
    async (req) => ({ export: await exports.latest(authUser(req).userId) }),
  );

  app.get(
    '/account/export/:id/download',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Download my data archive (a zip) for 24 h after it is ready (404 not mine, 410 expired)',
        security: bearer,
        params: dataExportParams,
        response: { 200: z.any(), ...errors },
      },
    },
    async (req, reply) => {
      const file = await exports.download(authUser(req).userId, req.params.id);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', `attachment; filename="${file.name}"`)
        .header('Content-Length', file.size)
        .header('Cache-Control', 'private, no-store')
        .send(file.stream);
    },
  );

  app.post(
    '/account/delete',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: `Delete my account and all my data (needs the password; an account without one types ${DELETE_CONFIRM_WORD}). Every session ends`,
        security: bearer,
        body: deleteAccountBody,
        response: { 200: accountNoticeSchema, ...errors },
      },
    },
    async (req) => {
      await erasure.deleteAccount(authUser(req), req.body);
      return { message: DataRightsMessages.accountDeleted };
    },
  );
  return exports;
}
