import {
  alertSchema,
  alertStateBody,
  apiErrorSchema,
  blockedUserSchema,
  createUserReportBody,
  evidencePageSchema,
  evidenceQuery,
  meetupCheckinBody,
  meetupCheckinSchema,
  reportListQuery,
  reportScreenshotSchema,
  reportStatusBody,
  safetyContactBody,
  safetyContactSchema,
  safetyFlagSchema,
  staffReportsPageSchema,
  staffUserReportSchema,
  userReportSchema,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { authUser, requireAuth } from '../../platform/auth.ts';
import { IntervalJob, runWithApp } from '../../platform/jobs.ts';
import { readPhotoUpload } from '../../platform/media/upload.ts';
import type { Module } from '../../platform/module.ts';
import { staffBy } from '../../platform/staff-gate.ts';
import { endCallsBetween } from '../calls/service.ts';
import { AlertsService } from './alerts.ts';
import { DemoAlertGenerator } from './demo.ts';
import { CHECKIN_SWEEP_MS, MeetupService } from './meetup.ts';
import { ReportsService } from './reports.ts';
import { SafetyService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['safety'];
const errors = { '4xx': apiErrorSchema };

/**
 * Blocking: block, unblock and the blocked-users list. Reports: a member reports another with
 * evidence, optionally blocking him in the same step so he is out of reach at once; staff
 * review them (admin.reports.edit). Also the safety alerts and the meetup check-ins.
 */
export const safetyModule: Module = async (app, deps) => {
  const safety = new SafetyService(deps, (me, targetId) => endCallsBetween(deps, me, targetId));
  const alerts = new AlertsService({ ...deps, log: app.log });
  // content_flagged: photo moderation tells the owner, after its commit, what became of his photo.
  deps.moderation.subscribe((e) => alerts.onModeration(e));
  const meetup = new MeetupService({ ...deps, raise: (id, a) => alerts.raise(id, a), log: app.log });
  // Overdue check-ins email the contact even with no tab open: a sweep every 30 s.
  runWithApp(app, new IntervalJob(() => meetup.sweep(), { name: 'check-in sweep', log: app.log, everyMs: CHECKIN_SWEEP_MS }));
  // The spec's simulated alerts, for demos only (DEMO_SAFETY_ALERTS; refused in production).
  if (deps.config.demoSafetyAlerts) {
    const demo = new DemoAlertGenerator({ db: deps.db, raise: (id, a) => alerts.raise(id, a), log: app.log });
    runWithApp(app, demo);
  }
  const reports = new ReportsService(deps, {
    block: (me, targetId) => safety.block(me, targetId),
    raise: (userId, alert) => alerts.raise(userId, alert),
  });
  // Staff routes: the staff gate (platform/staff-gate.ts) checks each against core's ADMIN_ROUTES.
  const staffOnly = {};
  const staff = (summary: string) => ({ tags: ['admin', ...tags], summary, ...secured });

  app.post(
    '/users/:id/block',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'Block a user: our conversation and match are deleted', ...secured, params: idParams },
    },
    async (req, reply) => {
      await safety.block(authUser(req).userId, req.params.id);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/users/:id/block',
    { preHandler: requireAuth, schema: { tags, summary: 'Unblock a user', ...secured, params: idParams } },
    async (req, reply) => {
      await safety.unblock(authUser(req).userId, req.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/me/blocked',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Users I blocked',
        ...secured,
        response: { 200: z.array(blockedUserSchema), '4xx': apiErrorSchema },
      },
    },
    async (req) => safety.listBlocked(authUser(req).userId),
  );

  app.post(
    '/reports/screenshots',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Upload a screenshot for a report (multipart "file"); WebP, no metadata, served only to you and staff',
        consumes: ['multipart/form-data'],
        ...secured,
        response: { 201: reportScreenshotSchema, ...errors },
      },
    },
    async (req, reply) => {
      const actor = await actorOf(req, deps.db);
      const bytes = await readPhotoUpload(app, req, deps.config.maxPhotoBytes);
      return reply.status(201).send(await reports.addScreenshot(actor, bytes));
    },
  );
  app.get(
    '/reports/screenshots/:id',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'A report screenshot (image/webp), to its reporter and staff', ...secured, params: idParams },
    },
    async (req, reply) => {
      const bytes = await reports.screenshot(await actorOf(req, deps.db), req.params.id);
      return reply
        .header('Content-Type', 'image/webp')
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(bytes);
    },
  );
  app.post(
    '/users/:id/report',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Report a user (20 a day), with screenshots and/or messages of our conversation; optionally block him too',
        ...secured,
        params: idParams,
        body: createUserReportBody,
        response: { 201: userReportSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await reports.report(await actorOf(req, deps.db), req.params.id, req.body)),
  );
  app.get(
    '/me/reports',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Reports I made, newest first',
        ...secured,
        response: { 200: z.array(userReportSchema), ...errors },
      },
    },
    async (req) => reports.mine(await actorOf(req, deps.db)),
  );

  // Staff: the admin area's reports queue.
  app.get(
    '/admin/reports',
    {
      ...staffOnly,
      schema: {
        ...staff('Reports against members, newest first: a page of 20, by status, category and words'),
        querystring: reportListQuery,
        response: { 200: staffReportsPageSchema, ...errors },
      },
    },
    async (req) => reports.staffList(await actorOf(req, deps.db), req.query),
  );
  app.patch(
    '/admin/reports/:id',
    {
      ...staffOnly,
      schema: {
        ...staff('Move a report on: pending → reviewed → actioned or dismissed'),
        params: idParams,
        body: reportStatusBody,
        response: { 200: staffUserReportSchema, ...errors },
      },
    },
    async (req) => (await reports.setStatus(await actorOf(req, deps.db), req.params.id, req.body, staffBy(req))).report,
  );
  app.get(
    '/admin/messages',
    {
      ...staffOnly,
      schema: {
        ...staff('Messages kept as report evidence, with their report, newest first'),
        querystring: evidenceQuery,
        response: { 200: evidencePageSchema, ...errors },
      },
    },
    async (req) => reports.evidence(await actorOf(req, deps.db), req.query.page),
  );
  app.get(
    '/admin/messages/photos/:id',
    {
      ...staffOnly,
      schema: { ...staff('A chat photo a report holds as evidence (image/webp); any other chat photo: 403'), params: idParams },
    },
    async (req, reply) => {
      const bytes = await reports.evidencePhoto(await actorOf(req, deps.db), req.params.id);
      return reply
        .header('Content-Type', 'image/webp')
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(bytes);
    },
  );
  app.get(
    '/admin/safety/flags',
    {
      ...staffOnly,
      schema: {
        ...staff('Members several others reported within a week'),
        response: { 200: z.array(safetyFlagSchema), ...errors },
      },
    },
    async (req) => reports.flags(await actorOf(req, deps.db)),
  );

  app.get(
    '/me/alerts',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'My safety alerts, newest first (dismissed ones are gone)',
        ...secured,
        response: { 200: z.array(alertSchema), ...errors },
      },
    },
    async (req) => alerts.list(await actorOf(req, deps.db)),
  );
  app.patch(
    '/me/alerts/:id',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Mark one of my alerts read, resolved or dismissed',
        ...secured,
        params: idParams,
        body: alertStateBody,
        response: { 200: alertSchema, ...errors },
      },
    },
    async (req) => alerts.setState(await actorOf(req, deps.db), req.params.id, req.body.state),
  );

  // Meetup safety: the trusted contact and safe word, and meetup check-ins.
  app.get(
    '/me/safety-contact',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'My trusted contact and safe word (null: none yet)',
        ...secured,
        response: { 200: safetyContactSchema.nullable(), ...errors },
      },
    },
    async (req) => meetup.contact(await actorOf(req, deps.db)),
  );
  app.put(
    '/me/safety-contact',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Set my trusted contact (name, email) and safe word',
        ...secured,
        body: safetyContactBody,
        response: { 200: safetyContactSchema, ...errors },
      },
    },
    async (req) => meetup.setContact(await actorOf(req, deps.db), req.body),
  );
  app.get(
    '/me/checkins',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'My meetup check-ins, newest first',
        ...secured,
        response: { 200: z.array(meetupCheckinSchema), ...errors },
      },
    },
    async (req) => meetup.list(await actorOf(req, deps.db)),
  );
  app.post(
    '/me/checkins',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Share a meetup (who, where, when) with my trusted contact; he is emailed if I do not check in by the time set',
        ...secured,
        body: meetupCheckinBody,
        response: { 201: meetupCheckinSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await meetup.create(await actorOf(req, deps.db), req.body)),
  );
  app.post(
    '/me/checkins/:id/done',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: "Check in: I'm OK",
        ...secured,
        params: idParams,
        response: { 200: meetupCheckinSchema, ...errors },
      },
    },
    async (req) => meetup.close(await actorOf(req, deps.db), req.params.id, 'checked_in'),
  );
  app.post(
    '/me/checkins/:id/cancel',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Cancel a meetup check-in',
        ...secured,
        params: idParams,
        response: { 200: meetupCheckinSchema, ...errors },
      },
    },
    async (req) => meetup.close(await actorOf(req, deps.db), req.params.id, 'cancelled'),
  );
};
