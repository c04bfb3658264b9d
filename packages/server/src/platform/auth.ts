import { randomBytes } from 'node:crypto';
import type { Clock } from '@fmk/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/index.ts';
import { unauthorized } from './errors.ts';

/**
 * Signed short-lived access tokens over revocable server-side sessions (ARCHITECTURE.md "auth").
 * A token names its session; a revoked or expired session makes every token of it useless.
 */
export interface AuthContext {
  userId: string;
  sessionId: string;
  expiresAt: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlMinutes: number,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(userId: string, sessionId: string): Promise<{ token: string; expiresAt: Date }> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.ttlMinutes * 60_000);
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .setJti(randomBytes(8).toString('hex'))
      .sign(this.key);
    return { token, expiresAt };
  }

  /** The token's claims, or null when it is malformed, forged or expired. */
  async verify(token: string): Promise<AuthContext | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: this.clock.now() });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
      return { userId: payload.sub, sessionId: payload.sid, expiresAt: new Date(payload.exp * 1000) };
    } catch {
      return null;
    }
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h?.startsWith('Bearer ')) return null;
  return h.slice(7).trim() || null;
}

/** Resolves the request's session: a valid token of a live session of an active user. */
export async function resolveAuth(db: Db, tokens: TokenService, clock: Clock, req: FastifyRequest): Promise<AuthContext | null> {
  return resolveToken(db, tokens, clock, bearerToken(req));
}

/** A token's session, when the token is valid for a live session of an active user (the live channel's auth message). */
export async function resolveToken(
  db: Db,
  tokens: TokenService,
  clock: Clock,
  token: string | null,
): Promise<AuthContext | null> {
  if (!token) return null;
  const claims = await tokens.verify(token);
  if (!claims) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.revoked_at', 'sessions.expires_at', 'users.is_active'])
    .where('sessions.id', '=', claims.sessionId)
    .where('sessions.user_id', '=', claims.userId)
    .executeTakeFirst();
  if (!row || row.revoked_at || row.expires_at <= clock.now() || !row.is_active) return null;
  return claims;
}

/** preHandler for routes that need a signed-in user: 401 'Authentication required' otherwise. */
export function requireAuth(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  done(req.auth ? undefined : unauthorized());
}

/** The signed-in user's id inside a route guarded by requireAuth. */
export function authUser(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}
