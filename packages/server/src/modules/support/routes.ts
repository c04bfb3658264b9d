import {
  apiErrorSchema,
  createFeedbackBody,
  createThreadBody,
  feedbackListQuery,
  feedbackSchema,
  feedbackStatusBody,
  screenshotSchema,
  staffFeedbackPageSchema,
  staffFeedbackSchema,
  staffThreadDetailSchema,
  staffThreadsPageSchema,
  supportMessageBody,
  threadDetailSchema,
  threadListQuery,
  threadSchema,
  threadStatusBody,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { requireAuth } from '../../platform/auth.ts';
import { readPhotoUpload } from '../../platform/media/upload.ts';
import type { Module } from '../../platform/module.ts';
import { staffBy } from '../../platform/staff-gate.ts';
import { SupportService } from './service.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const tags = ['support'];
const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Support: /settings/bugs-feedback's reports and /settings/help's threads, and the
 * staff side the admin area answers them from (admin.reports.edit).
 */
export const supportModule: Module = async (app, deps) => {
  const support = new SupportService(deps);
  const auth = { preHandler: requireAuth };
  // Staff routes: the staff gate (platform/staff-gate.ts) checks each against core's ADMIN_ROUTES.
  const staffOnly = {};
  const staff = (summary: string) => ({ tags: ['admin', ...tags], summary, ...secured });

  app.post(
    '/support/screenshots',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Upload a screenshot for a report (multipart "file"); WebP, no metadata, served only to you and staff',
        consumes: ['multipart/form-data'],
        ...secured,
        response: { 201: screenshotSchema, ...errors },
      },
    },
    async (req, reply) => {
      const actor = await actorOf(req, deps.db);
      const bytes = await readPhotoUpload(app, req, deps.config.maxPhotoBytes);
      return reply.status(201).send(await support.addScreenshot(actor, bytes));
    },
  );
  app.get(
    '/support/screenshots/:id',
    {
      ...auth,
      schema: { tags, summary: 'A report screenshot (image/webp), to its sender and staff', ...secured, params: idParams },
    },
    async (req, reply) => {
      const bytes = await support.screenshot(await actorOf(req, deps.db), req.params.id);
      return reply
        .header('Content-Type', 'image/webp')
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .send(bytes);
    },
  );

  app.get(
    '/support/reports',
    {
      ...auth,
      schema: {
        tags,
        summary: 'My bug reports and feedback, newest first',
        ...secured,
        response: { 200: z.array(feedbackSchema), ...errors },
      },
    },
    async (req) => support.myReports(await actorOf(req, deps.db)),
  );
  app.post(
    '/support/reports',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Send a bug report or feedback (10 a day); the browser is read from the request',
        ...secured,
        body: createFeedbackBody,
        response: { 201: feedbackSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await support.createReport(await actorOf(req, deps.db), req.body, req.headers['user-agent'])),
  );

  app.get(
    '/support/threads',
    {
      ...auth,
      schema: { tags, summary: 'My conversations with support', ...secured, response: { 200: z.array(threadSchema), ...errors } },
    },
    async (req) => support.myThreads(await actorOf(req, deps.db)),
  );
  app.post(
    '/support/threads',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Contact support: a new conversation with its first message (5 a day)',
        ...secured,
        body: createThreadBody,
        response: { 201: threadDetailSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await support.createThread(await actorOf(req, deps.db), req.body)),
  );
  app.get(
    '/support/threads/:id',
    {
      ...auth,
      schema: {
        tags,
        summary: 'One of my conversations with support; marks answers read',
        ...secured,
        params: idParams,
        response: { 200: threadDetailSchema, ...errors },
      },
    },
    async (req) => support.openThread(await actorOf(req, deps.db), req.params.id),
  );
  app.post(
    '/support/threads/:id/messages',
    {
      ...auth,
      schema: {
        tags,
        summary: 'Write in one of my conversations with support',
        ...secured,
        params: idParams,
        body: supportMessageBody,
        response: { 201: threadDetailSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await support.writeToThread(await actorOf(req, deps.db), req.params.id, req.body.text)),
  );

  // Staff: the admin area's bugs-and-feedback screen and support inbox.
  app.get(
    '/admin/support/reports',
    {
      ...staffOnly,
      schema: {
        ...staff('Bug reports and feedback, newest first: a page of 25, by status, kind, category and words'),
        querystring: feedbackListQuery,
        response: { 200: staffFeedbackPageSchema, ...errors },
      },
    },
    async (req) => support.staffReports(await actorOf(req, deps.db), req.query),
  );
  app.patch(
    '/admin/support/reports/:id',
    {
      ...staffOnly,
      schema: {
        ...staff("Change a report's status"),
        params: idParams,
        body: feedbackStatusBody,
        response: { 200: staffFeedbackSchema, ...errors },
      },
    },
    async (req) => support.setReportStatus(await actorOf(req, deps.db), req.params.id, req.body.status, staffBy(req)),
  );
  app.get(
    '/admin/support/threads',
    {
      ...staffOnly,
      schema: {
        ...staff('Support conversations, Platinum members first: a page of 25, by status, tier and words'),
        querystring: threadListQuery,
        response: { 200: staffThreadsPageSchema, ...errors },
      },
    },
    async (req) => support.staffThreads(await actorOf(req, deps.db), req.query),
  );
  app.get(
    '/admin/support/threads/:id',
    {
      ...staffOnly,
      schema: {
        ...staff('One support conversation; marks it read for staff'),
        params: idParams,
        response: { 200: staffThreadDetailSchema, ...errors },
      },
    },
    async (req) => support.staffThread(await actorOf(req, deps.db), req.params.id),
  );
  app.post(
    '/admin/support/threads/:id/messages',
    {
      ...staffOnly,
      schema: {
        ...staff('Answer a support conversation'),
        params: idParams,
        body: supportMessageBody,
        response: { 201: staffThreadDetailSchema, ...errors },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await support.staffReply(await actorOf(req, deps.db), req.params.id, req.body.text, staffBy(req))),
  );
  app.patch(
    '/admin/support/threads/:id',
    {
      ...staffOnly,
      schema: {
        ...staff('Close a support conversation'),
        params: idParams,
        body: threadStatusBody,
        response: { 200: staffThreadDetailSchema, ...errors },
      },
    },
    async (req) => support.closeThread(await actorOf(req, deps.db), req.params.id, staffBy(req)),
  );
};
