import {
  apiErrorSchema,
  type DeviceSession,
  deviceLabel,
  deviceSessionsSchema,
  SessionMessages,
  sessionIdParams,
  signedOutElsewhereSchema,
} from '@fmk/core';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { type AuthContext, authUser, requireAuth } from '../../platform/auth.ts';
import { SESSION_ENDED } from '../../platform/bus.ts';
import { notFound } from '../../platform/errors.ts';
import type { AppDeps, ZodFastify } from '../../platform/module.ts';
import { revokeUserSessions } from '../../platform/sessions/repo.ts';
import * as repo from './repo.ts';

const errors = { '4xx': apiErrorSchema };
const bearer = [{ bearer: [] }];

/**
 * "Where you're signed in": the account's own sessions, and signing one or all the others out.
 * A revoked session's token stops working at once on this instance (the session cache forgets
 * it) and its live sockets close on every instance (SESSION_ENDED through the bus).
 */
export class SessionsService {
  constructor(private readonly deps: Pick<AppDeps, 'clock' | 'bus'>) {}

  async list(db: Db, auth: AuthContext): Promise<{ sessions: DeviceSession[] }> {
    const rows = await repo.liveSessions(db, auth.userId, this.deps.clock.now());
    const sessions = rows.map((r) => ({
      id: r.id,
      device: deviceLabel(r.user_agent),
      createdAt: r.created_at.toISOString(),
      lastUsedAt: r.last_used_at.toISOString(),
      current: r.id === auth.sessionId,
    }));
    // This device first, then the others by last use.
    sessions.sort((a, b) => Number(b.current) - Number(a.current));
    return { sessions };
  }

  /** Signs one of the caller's sessions out; another user's session or an ended one is 404. */
  async revoke(db: Db, auth: AuthContext, id: string): Promise<void> {
    const ids = await revokeUserSessions(db, auth.userId, this.deps.clock.now(), { only: id });
    if (ids.length === 0) throw notFound(SessionMessages.notFound);
    await this.ended(auth.userId, ids);
  }

  /** Signs every session of the caller's out but the one making the request. */
  async revokeOthers(db: Db, auth: AuthContext): Promise<{ signedOut: number }> {
    const ids = await revokeUserSessions(db, auth.userId, this.deps.clock.now(), { keep: auth.sessionId });
    await this.ended(auth.userId, ids);
    return { signedOut: ids.length };
  }

  private async ended(userId: string, ids: string[]): Promise<void> {
    await this.deps.bus.publishBatch(ids.map((sessionId) => [[userId], { type: SESSION_ENDED, sessionId }] as const));
  }
}

export function sessionRoutes(app: ZodFastify, deps: AppDeps): void {
  const sessions = new SessionsService(deps);
  const { db } = deps;

  app.get(
    '/auth/sessions',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['auth'],
        summary: "Where I'm signed in: my live sessions, this one first",
        security: bearer,
        response: { 200: deviceSessionsSchema, ...errors },
      },
    },
    async (req) => sessions.list(db, authUser(req)),
  );

  app.delete(
    '/auth/sessions/:id',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['auth'],
        summary: 'Sign one of my sessions out (404 when it is not mine or has ended)',
        security: bearer,
        params: sessionIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await sessions.revoke(db, authUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/sessions/sign-out-others',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['auth'],
        summary: 'Sign out everywhere else: every session of mine but this one ends',
        security: bearer,
        response: { 200: signedOutElsewhereSchema, ...errors },
      },
    },
    async (req) => sessions.revokeOthers(db, authUser(req)),
  );
}
