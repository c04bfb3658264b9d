import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

export const NUL_MESSAGE = 'Text must not contain the NUL character (\\u0000).';

/** Whether a parsed value (params, query, JSON body) holds a string with a NUL character anywhere, keys included. */
export function holdsNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (v === null || typeof v !== 'object' || depth > 64 || Buffer.isBuffer(v)) return false;
  if (Array.isArray(v)) return v.some((x) => holdsNul(x, depth + 1));
  return Object.entries(v).some(([k, x]) => k.includes('\u0000') || holdsNul(x, depth + 1));
}

/**
 * Refuses a request whose path, query or JSON body carries a NUL character: no text column of
 * PostgreSQL (or PGlite) can hold one, so it would fail in the database as a 500. Answered 400
 * before validation, after the session check (platform/routes.ts installs it last).
 */
export function refuseNul(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  done(
    holdsNul(req.params) || holdsNul(req.query) || holdsNul(req.body)
      ? new AppError(400, 'invalid_input', NUL_MESSAGE)
      : undefined,
  );
}
