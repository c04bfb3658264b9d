import {
  apiErrorSchema,
  checkinBody,
  commentBody,
  cruiseConfigSchema,
  cruiseStatusSchema,
  eventBody,
  eventCommentSchema,
  eventDetailSchema,
  eventListSchema,
  idParams,
  nearbyPageSchema,
  nearbyQuery,
  precisionBody,
  spotListSchema,
  spotProposalBody,
  spotSchema,
  startSessionBody,
} from '@fmk/core';
import { actorOf } from '../../platform/access.ts';
import { requireAuth } from '../../platform/auth.ts';
import { runWithApp } from '../../platform/jobs.ts';
import type { Module } from '../../platform/module.ts';
import { AlertsService, SafetySignals } from '../safety/service.ts';
import { EventService } from './events.ts';
import { NearbyService } from './nearby.ts';
import { CruiseSessionService, CruiseSweeper } from './sessions.ts';
import { spotReviewRoutes } from './spot-review-routes.ts';
import { SpotService } from './spots.ts';

const secured = { security: [{ bearer: [] }] };
const errors = { '4xx': apiErrorSchema };
const tags = ['cruise'];

/** Cruise: sessions, nearby cruisers, spots and check-ins, group events. */
export const cruiseModule: Module = async (app, deps) => {
  const safety = new SafetySignals(new AlertsService({ ...deps, log: app.log }), app.log);
  const sessions = new CruiseSessionService({ ...deps, safety });
  const nearby = new NearbyService(deps);
  const spots = new SpotService(deps);
  const events = new EventService(deps);

  // Sessions end by themselves at ends_at (every read filters on it); the sweeper adds them to
  // the counters with no tab open. Started and stopped with the app.
  const sweeper = new CruiseSweeper({ db: deps.db, clock: deps.clock, log: app.log });
  runWithApp(app, sweeper);
  spotReviewRoutes(app, deps);

  app.get(
    '/cruise/config',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Map tiles for the cruise map (none: a plain background)',
        ...secured,
        response: { 200: cruiseConfigSchema },
      },
    },
    async () => ({ tileUrl: deps.config.mapTileUrl, tileAttribution: deps.config.mapTileAttribution }),
  );

  const status = { 200: cruiseStatusSchema, ...errors };
  app.get(
    '/cruise/session',
    { preHandler: requireAuth, schema: { tags, summary: 'My session, counters and quota', ...secured, response: status } },
    async (req) => sessions.status(await actorOf(req, deps.db)),
  );
  app.post(
    '/cruise/session',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Start a 30-minute session (free 1/week, premium 1/day, platinum unlimited; 403 with the upgrade prompt)',
        ...secured,
        body: startSessionBody,
        response: status,
      },
    },
    async (req) => sessions.start(await actorOf(req, deps.db), req.body ?? {}),
  );
  app.post(
    '/cruise/session/end',
    { preHandler: requireAuth, schema: { tags, summary: 'End my session now', ...secured, response: status } },
    async (req) => sessions.end(await actorOf(req, deps.db)),
  );

  app.put(
    '/cruise/precision',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'What others see of my position: exact (my 500 m area on their map) or approximate (a distance only)',
        ...secured,
        body: precisionBody,
        response: status,
      },
    },
    async (req) => sessions.setPrecision(await actorOf(req, deps.db), req.body.locationPrecision),
  );

  app.get(
    '/cruise/nearby',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary:
          'Cruisers nearby: in a session, now mode, active, located within 30 minutes; cell centres and distance labels only',
        ...secured,
        querystring: nearbyQuery,
        response: { 200: nearbyPageSchema, ...errors },
      },
    },
    async (req) => nearby.list(await actorOf(req, deps.db), req.query),
  );

  app.get(
    '/cruise/spots',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Approved spots within 25 km and my proposals',
        ...secured,
        response: { 200: spotListSchema, ...errors },
      },
    },
    async (req) => spots.list(await actorOf(req, deps.db)),
  );
  app.post(
    '/cruise/spots',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Propose a spot (pending until staff approve it)',
        ...secured,
        body: spotProposalBody,
        response: { 201: spotSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await spots.propose(await actorOf(req, deps.db), req.body)),
  );
  app.post(
    '/cruise/spots/:id/checkin',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Check in to a spot for a while',
        ...secured,
        params: idParams,
        body: checkinBody,
        response: { 200: spotSchema, ...errors },
      },
    },
    async (req) => spots.checkIn(await actorOf(req, deps.db), req.params.id, req.body?.minutes ?? 60),
  );
  app.delete(
    '/cruise/spots/:id/checkin',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'Check out of a spot', ...secured, params: idParams, response: { 200: spotSchema, ...errors } },
    },
    async (req) => spots.checkOut(await actorOf(req, deps.db), req.params.id),
  );

  const detail = { 200: eventDetailSchema, ...errors };
  app.get(
    '/cruise/events',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'Events near me that are not over', ...secured, response: { 200: eventListSchema, ...errors } },
    },
    async (req) => events.list(await actorOf(req, deps.db)),
  );
  app.post(
    '/cruise/events',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Create an event at a spot or a place',
        ...secured,
        body: eventBody,
        response: { 201: eventDetailSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await events.create(await actorOf(req, deps.db), req.body)),
  );
  app.get(
    '/cruise/events/:id',
    {
      preHandler: requireAuth,
      schema: { tags, summary: 'An event with its comments', ...secured, params: idParams, response: detail },
    },
    async (req) => events.detail(await actorOf(req, deps.db), req.params.id),
  );
  app.post(
    '/cruise/events/:id/attend',
    { preHandler: requireAuth, schema: { tags, summary: 'Attend an event', ...secured, params: idParams, response: detail } },
    async (req) => events.attend(await actorOf(req, deps.db), req.params.id),
  );
  app.delete(
    '/cruise/events/:id/attend',
    { preHandler: requireAuth, schema: { tags, summary: 'Leave an event', ...secured, params: idParams, response: detail } },
    async (req) => events.leave(await actorOf(req, deps.db), req.params.id),
  );
  app.post(
    '/cruise/events/:id/comments',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: 'Comment on an event',
        ...secured,
        params: idParams,
        body: commentBody,
        response: { 201: eventCommentSchema, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await events.comment(await actorOf(req, deps.db), req.params.id, req.body.body)),
  );
  app.post(
    '/cruise/events/:id/cancel',
    { preHandler: requireAuth, schema: { tags, summary: 'Cancel my event', ...secured, params: idParams, response: detail } },
    async (req) => events.cancel(await actorOf(req, deps.db), req.params.id),
  );
};
