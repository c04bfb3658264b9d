import {
  apiErrorSchema,
  conversationSchema,
  MINUTE,
  messagePageSchema,
  messageSchema,
  openConversationBody,
  pageQuery,
  photoSchema,
  photoUrlSchema,
  readBody,
  sendMessageBody,
  sinceQuery,
  typingBody,
} from '@fmk/core';
import { z } from 'zod';
import { actorOf } from '../../platform/access.ts';
import { authUser, requireAuth } from '../../platform/auth.ts';
import { readPhotoUpload } from '../../platform/media/upload.ts';
import type { Module } from '../../platform/module.ts';
import { WindowLimiter } from '../../platform/protections/window.ts';
import { AlertsService, MeetupService } from '../safety/service.ts';
import { MessagingService } from './service.ts';
import { UnverifiedChatSweeper } from './unverified.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const idParams = z.object({ id: z.string().min(1).max(64) });
const tags = ['messaging'];

/** Conversations and messages (contract in core's messaging.ts). */
export const messagingModule: Module = async (app, deps) => {
  const alerts = new AlertsService({ ...deps, log: app.log });
  const meetup = new MeetupService({ ...deps, raise: (id, a) => alerts.raise(id, a), log: app.log });
  // Safety reads each sent text: spam and scam patterns, meetup plans, his safe word. After the
  // send answers, in the app's background queue: its reads would otherwise hold the send's pool
  // connections (app.notifier.settle() waits for it).
  const screener = {
    async screenMessage(m: { id: string; senderId: string; receiverId: string; text: string }) {
      deps.background.enqueue(async () => {
        await alerts.screenMessage(m);
        await meetup.screenSafeWord(m);
      });
    },
  };
  // One count of sends per member for the app (the live channel's MessagingService never sends).
  const sendRate = new WindowLimiter(deps.config.rateLimits.messagesPerMinute, MINUTE, deps.clock);
  const messaging = new MessagingService({ ...deps, log: app.log, screener, sendRate });
  deps.moderation.handle('chat_photo', messaging.moderationHandler());
  // autoDeleteUnverifiedChats: unanswered chats from unverified men leave his list after 24 h,
  // whether or not he has a tab open. Started and stopped with the app.
  const sweeper = new UnverifiedChatSweeper({ db: deps.db, clock: deps.clock, bus: deps.bus, log: app.log });
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', async () => sweeper.stop());

  app.get(
    '/conversations',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'My conversations, newest activity first',
        ...secured,
        response: { 200: z.array(conversationSchema), ...errors },
      },
    },
    async (req) => messaging.list(await actorOf(req, deps.db)),
  );

  app.post(
    '/conversations',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Open or create the conversation with a user (matched users; Platinum before matching)',
        ...secured,
        body: openConversationBody,
        response: { 200: conversationSchema, ...errors },
      },
    },
    async (req) => messaging.open(await actorOf(req, deps.db), req.body.userId),
  );

  app.get(
    '/conversations/:id',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'One conversation',
        ...secured,
        params: idParams,
        response: { 200: conversationSchema, ...errors },
      },
    },
    async (req) => messaging.get(await actorOf(req, deps.db), req.params.id),
  );

  app.delete(
    '/conversations/:id',
    { preHandler: requireAuth, schema: { tags, summary: 'Delete a conversation for me', ...secured, params: idParams } },
    async (req, reply) => {
      await messaging.deleteForMe(await actorOf(req, deps.db), req.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/conversations/:id/messages',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Messages, oldest first; page back with before=seq',
        ...secured,
        params: idParams,
        querystring: pageQuery,
        response: { 200: messagePageSchema, ...errors },
      },
    },
    async (req) => messaging.page(await actorOf(req, deps.db), req.params.id, req.query),
  );

  app.post(
    '/conversations/:id/messages',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Send a message (idempotent by clientId: a retry returns the first with 200)',
        ...secured,
        params: idParams,
        body: sendMessageBody,
        response: { 200: messageSchema, 201: messageSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { message, created } = await messaging.send(await actorOf(req, deps.db), req.params.id, req.body);
      return reply.status(created ? 201 : 200).send(message);
    },
  );

  app.post(
    '/conversations/:id/read',
    { preHandler: requireAuth, schema: { tags, summary: 'Mark read up to a seq', ...secured, params: idParams, body: readBody } },
    async (req, reply) => {
      await messaging.read(await actorOf(req, deps.db), req.params.id, req.body.upTo);
      return reply.status(204).send();
    },
  );

  app.post(
    '/conversations/:id/typing',
    { preHandler: requireAuth, schema: { tags, summary: 'Typing on or off', ...secured, params: idParams, body: typingBody } },
    async (req, reply) => {
      await messaging.setTyping(await actorOf(req, deps.db), req.params.id, req.body.typing);
      return reply.status(204).send();
    },
  );

  app.get(
    '/messages/since',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Catch-up: my messages after a seq, ascending (500 a page)',
        ...secured,
        querystring: sinceQuery,
        response: { 200: messagePageSchema, ...errors },
      },
    },
    async (req) => messaging.since(await actorOf(req, deps.db), req.query.after),
  );

  // A chat photo on its signed URL: no token (an <img> cannot send one); the signature names a member.
  app.get(
    '/messages/photos/:id',
    {
      schema: {
        tags,
        summary: "A chat photo's bytes, on a short-lived URL signed for a member of its conversation",
        params: idParams,
        querystring: z.object({ e: z.string().max(20).default(''), s: z.string().max(100).default('') }),
      },
    },
    async (req, reply) => {
      const file = await messaging.photos.open(req.params.id, req.query.e, req.query.s);
      return reply
        .header('Content-Type', 'image/webp')
        .header('Content-Length', file.size)
        .header('Cache-Control', `private, max-age=${file.leftS}`)
        .send(file.stream);
    },
  );

  app.get(
    '/messages/:id/photo-url',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'A fresh URL for the photo of a message I sent or received (one my content filtering withheld)',
        ...secured,
        params: idParams,
        response: { 200: photoUrlSchema, ...errors },
      },
    },
    async (req) => messaging.photos.reveal(authUser(req).userId, req.params.id),
  );

  app.post(
    '/messages/photos',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Upload a photo for a message (multipart "file"); WebP, no metadata',
        consumes: ['multipart/form-data'],
        ...secured,
        response: { 201: photoSchema, ...errors },
      },
    },
    async (req, reply) => {
      const bytes = await readPhotoUpload(app, req, deps.config.maxPhotoBytes);
      return reply.status(201).send(await messaging.addPhoto(authUser(req).userId, bytes));
    },
  );
};
