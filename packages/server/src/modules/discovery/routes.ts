import { apiErrorSchema, gridPageSchema, gridQuery, locationBody, locationConsentBody, Messages } from '@fmk/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf } from '../../platform/access.ts';
import { authUser, requireAuth } from '../../platform/auth.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { Module } from '../../platform/module.ts';
import { AlertsService, SafetySignals } from '../safety/service.ts';
import { CandidateCache } from './candidates.ts';
import { GridMemory } from './memory.ts';
import { GridService, LocationService } from './service.ts';

const secured = { security: [{ bearer: [] }] };

/** Location routes answer 'User not authenticated' (spec section 8), before validating the body. */
function requireLocationAuth(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  done(req.auth ? undefined : unauthorized(Messages.locationUnauthenticated));
}

/** Locations and the grid (issue 4 items 1-3). */
export const discoveryModule: Module = async (app, deps) => {
  const safety = new SafetySignals(new AlertsService({ ...deps, log: app.log }), app.log);
  const locations = new LocationService({ ...deps, safety });
  // The grid's per-cell candidate lists, dropped on every instance by the moves the bus announces.
  const candidates = deps.config.gridCellLists ? new CandidateCache() : undefined;
  if (candidates) {
    candidates.listen(deps.bus);
    app.addHook('onClose', async () => candidates.close());
  }
  // The rules over them in memory, kept fresh from the database's change log (memory.ts).
  const memory = candidates && deps.config.gridMemory ? new GridMemory() : undefined;
  const grid = new GridService(deps, deps.config.tokenSecret, candidates, memory);

  app.put(
    '/me/location',
    {
      preValidation: requireLocationAuth,
      schema: {
        tags: ['discovery'],
        summary: 'Share my position: stored only as the centre of its 500 m cell (30 s between updates)',
        ...secured,
        body: locationBody,
      },
    },
    async (req, reply) => {
      await locations.update(authUser(req).userId, req.body);
      return reply.status(204).send();
    },
  );

  app.put(
    '/me/location/consent',
    {
      preValidation: requireLocationAuth,
      schema: {
        tags: ['discovery'],
        summary: 'Give or withdraw consent to location sharing (withdrawing also stops sharing)',
        ...secured,
        body: locationConsentBody,
      },
    },
    async (req, reply) => {
      await locations.setConsent(authUser(req).userId, req.body.consent);
      return reply.status(204).send();
    },
  );

  app.delete(
    '/me/location',
    {
      preValidation: requireLocationAuth,
      schema: { tags: ['discovery'], summary: 'Stop sharing my location', ...secured },
    },
    async (req, reply) => {
      await locations.stop(authUser(req).userId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/grid',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['discovery'],
        summary: 'Nearby profiles by distance between cells; advanced filters need Premium (403)',
        ...secured,
        querystring: gridQuery,
        response: { 200: gridPageSchema, '4xx': apiErrorSchema },
      },
    },
    async (req) => grid.pageFor(authUser(req).userId, req.query, () => actorOf(req, deps.db)),
  );
};
