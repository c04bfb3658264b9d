import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '@fmk/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import type { Db } from '../db/index.ts';
import { findSessionForToken } from './auth/repo.ts';
import { unauthorized } from './errors.ts';

/**
 * Signed short-lived access tokens over revocable server-side sessions (docs/decisions/0007).
 * A token names its session; a revoked or expired session makes every token of it useless.
 */
export interface AuthContext {
  userId: string;
  sessionId: string;
  expiresAt: Date;
  /** A staff session (POST /admin/login and its second factor), apart from member sessions. */
  staff: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Verified tokens remembered by TokenService (their text maps to their claims). */
const VERIFIED_TOKENS_MAX = 50_000;

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlMinutes: number,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(
    userId: string,
    sessionId: string,
    opts: { staff?: boolean; ttlMinutes?: number } = {},
  ): Promise<{ token: string; expiresAt: Date }> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + (opts.ttlMinutes ?? this.ttlMinutes) * 60_000);
    const token = await new SignJWT(opts.staff ? { sid: sessionId, stf: 1 } : { sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .setJti(randomBytes(8).toString('hex'))
      .sign(this.key);
    return { token, expiresAt };
  }

  /**
   * The token's claims, or null when it is malformed, forged or expired. Verified here with
   * node:crypto, synchronously: jose's WebCrypto verify costs an async job per request, the
   * largest part of a small authenticated request. Only what `issue` makes is accepted: a
   * compact JWS with header alg HS256 (no crit), an HMAC-SHA256 signature over the first two
   * parts, and string sub and sid, numeric exp in the future (and nbf, if present, not ahead).
   */
  async verify(token: string): Promise<AuthContext | null> {
    return this.verifySync(token);
  }

  verifySync(token: string): AuthContext | null {
    const seen = this.verified.get(token);
    if (seen) return seen.expiresAt.getTime() > this.clock.now().getTime() ? seen : null;
    const claims = this.check(token);
    if (claims) {
      // A client sends the same token for up to an hour: checked once, then looked up.
      if (this.verified.size >= VERIFIED_TOKENS_MAX) {
        const oldest = this.verified.keys().next().value;
        if (oldest !== undefined) this.verified.delete(oldest);
      }
      this.verified.set(token, claims);
    }
    return claims;
  }

  private readonly verified = new Map<string, AuthContext>();

  private check(token: string): AuthContext | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [h, p, sig] = parts as [string, string, string];
    const header = parseSegment(h);
    if (header?.alg !== 'HS256' || 'crit' in header || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return null;
    const given = Buffer.from(sig, 'base64url');
    const expected = createHmac('sha256', this.key).update(`${h}.${p}`).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const payload = parseSegment(p);
    if (!payload) return null;
    const { sub, sid, exp, nbf, stf } = payload;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') return null;
    const nowS = Math.floor(this.clock.now().getTime() / 1000);
    if (exp <= nowS) return null;
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowS)) return null;
    return { userId: sub, sessionId: sid, expiresAt: new Date(exp * 1000), staff: stf === 1 };
  }
}

/** A base64url JSON object segment of a compact JWS, or null. */
function parseSegment(segment: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
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

/**
 * Sessions found live in the last few seconds, so that a request's auth costs no database round
 * trip (the largest share of a small request's time here). Sign-out and bans on this instance
 * forget their sessions at once; on another instance of a cluster a revoked session stays
 * usable for at most `ttlMs`. Expiry is still checked against the clock on every request.
 */
export class SessionCache {
  private readonly entries = new Map<string, { userId: string; expiresAt: Date; until: number }>();
  constructor(
    private readonly ttlMs = 5000,
    private readonly max = 100_000,
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  /** The cached session's expiry, when it was found live within the last ttlMs. */
  get(sessionId: string, userId: string): Date | null {
    const e = this.entries.get(sessionId);
    if (!e) return null;
    if (e.userId !== userId || e.until <= this.monotonic()) {
      this.entries.delete(sessionId);
      return null;
    }
    return e.expiresAt;
  }

  set(sessionId: string, userId: string, expiresAt: Date): void {
    if (this.entries.size >= this.max) {
      // Oldest first (a Map iterates in insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(sessionId, { userId, expiresAt, until: this.monotonic() + this.ttlMs });
  }

  forgetSession(sessionId: string): void {
    this.entries.delete(sessionId);
  }

  forgetUsers(userIds: readonly string[]): void {
    const gone = new Set(userIds);
    for (const [id, e] of this.entries) if (gone.has(e.userId)) this.entries.delete(id);
  }
}

/** This process's session cache (session ids are random: instances in one process can share it). */
export const sessionCache = new SessionCache();

/** A token's session, when the token is valid for a live session of an active user (the live channel's auth message). */
export async function resolveToken(
  db: Db,
  tokens: TokenService,
  clock: Clock,
  token: string | null,
  cache: SessionCache = sessionCache,
): Promise<AuthContext | null> {
  if (!token) return null;
  const claims = await tokens.verify(token);
  if (!claims) return null;
  const now = clock.now();
  const cached = cache.get(claims.sessionId, claims.userId);
  if (cached) return cached > now ? claims : null;
  const row = await findSessionForToken(db, claims.sessionId, claims.userId);
  if (!row || row.revoked_at || row.expires_at <= now || !row.is_active) return null;
  cache.set(claims.sessionId, claims.userId, row.expires_at);
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
