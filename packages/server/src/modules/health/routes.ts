import {
  apiErrorSchema,
  createMedicationBody,
  createScreeningBody,
  exportQuery,
  healthSettingsBody,
  healthSummarySchema,
  medicationLogSchema,
  medicationSchema,
  privateDataExportSchema,
  screeningSchema,
  takenBody,
  updateMedicationBody,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { authUser, requireAuth } from '../../platform/auth.ts';
import { runWithApp } from '../../platform/jobs.ts';
import type { Module } from '../../platform/module.ts';
import { Vault } from '../../platform/vault.ts';
import { exportToCsv } from './export.ts';
import { ReminderScheduler } from './scheduler.ts';
import { HealthService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['health'];

/**
 * Medications, reminders, STI screenings, and the export and deletion of all private data
 * (contract in core's api-health.ts). Owner only. Also runs the reminder scheduler
 * (not under NODE_ENV=test: tests drive its tick themselves).
 */
export const healthModule: Module = async (app, deps) => {
  const vault = new Vault(deps.config.healthKey, deps.clock);
  const health = new HealthService({ db: deps.db, clock: deps.clock, vault, storage: deps.storage });
  const scheduler = new ReminderScheduler({ db: deps.db, clock: deps.clock, vault, push: deps.push, log: app.log });
  if (deps.config.env !== 'test') {
    runWithApp(app, scheduler);
  }
  const auth = { preHandler: requireAuth };
  // Health data must not linger in shared or browser caches.
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.put(
    '/health/settings',
    {
      ...auth,
      schema: { tags, summary: 'Tell the server my time zone (reminders follow it)', ...secured, body: healthSettingsBody },
    },
    async (req, reply) => {
      await health.setTimeZone(authUser(req).userId, req.body.timeZone);
      return reply.status(204).send();
    },
  );
  app.get(
    '/health/summary',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Due reminders, overdue screening, suggestion',
        ...secured,
        response: { 200: healthSummarySchema, ...errors },
      },
    },
    async (req) => health.summary(await actorOf(req, deps.db)),
  );

  app.get(
    '/health/medications',
    {
      ...auth,
      schema: {
        tags,
        summary: 'My medications, newest first (100)',
        ...secured,
        response: { 200: z.array(medicationSchema), ...errors },
      },
    },
    async (req) => health.listMedications(await actorOf(req, deps.db)),
  );
  app.post(
    '/health/medications',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Add a medication',
        ...secured,
        body: createMedicationBody,
        response: { 201: medicationSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await health.createMedication(await actorOf(req, deps.db), req.body)),
  );
  app.patch(
    '/health/medications/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Edit, pause or resume a medication',
        ...secured,
        params: idParams,
        body: updateMedicationBody,
        response: { 200: medicationSchema, ...errors },
      },
    },
    async (req) => health.updateMedication(await actorOf(req, deps.db), req.params.id, req.body),
  );
  app.delete(
    '/health/medications/:id',
    { ...auth, schema: { tags, summary: 'Delete a medication and its logs', ...secured, params: idParams } },
    async (req, reply) => {
      await health.deleteMedication(await actorOf(req, deps.db), req.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/health/medications/:id/taken',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Mark the current dose taken (or not)',
        ...secured,
        params: idParams,
        body: takenBody,
        response: { 200: medicationLogSchema, ...errors },
      },
    },
    async (req) => health.markTaken(await actorOf(req, deps.db), req.params.id, req.body.taken),
  );
  app.get(
    '/health/medication-logs',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Medication history, date descending (200)',
        ...secured,
        response: { 200: z.array(medicationLogSchema), ...errors },
      },
    },
    async (req) => health.listLogs(await actorOf(req, deps.db)),
  );

  app.get(
    '/health/screenings',
    {
      ...auth,
      schema: {
        tags,
        summary: 'My STI screenings, date descending (50)',
        ...secured,
        response: { 200: z.array(screeningSchema), ...errors },
      },
    },
    async (req) => health.listScreenings(await actorOf(req, deps.db)),
  );
  app.post(
    '/health/screenings',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Record a screening',
        ...secured,
        body: createScreeningBody,
        response: { 201: screeningSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await health.createScreening(await actorOf(req, deps.db), req.body)),
  );
  app.put(
    '/health/screenings/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Replace a screening',
        ...secured,
        params: idParams,
        body: createScreeningBody,
        response: { 200: screeningSchema, ...errors },
      },
    },
    async (req) => health.updateScreening(await actorOf(req, deps.db), req.params.id, req.body),
  );
  app.delete(
    '/health/screenings/:id',
    { ...auth, schema: { tags, summary: 'Delete a screening', ...secured, params: idParams } },
    async (req, reply) => {
      await health.deleteScreening(await actorOf(req, deps.db), req.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/me/private-data',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Export all my health and activity data (JSON or CSV)',
        ...secured,
        querystring: exportQuery,
        // format=csv: a text/csv string, which Fastify sends as it is (no serializer).
        response: { 200: z.union([privateDataExportSchema, z.string()]), ...errors },
      },
    },
    async (req, reply) => {
      const data = await health.exportAll(authUser(req).userId);
      const day = data.exportedAt.slice(0, 10);
      if (req.query.format === 'csv') {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="fmk-health-activity-${day}.csv"`)
          .send(exportToCsv(data));
      }
      return reply.header('content-disposition', `attachment; filename="fmk-health-activity-${day}.json"`).send(data);
    },
  );
  app.delete(
    '/me/private-data',
    { ...auth, schema: { tags, summary: 'Delete all my health and activity data and its key', ...secured } },
    async (req, reply) => {
      await health.deleteAll(authUser(req).userId);
      return reply.status(204).send();
    },
  );
};
