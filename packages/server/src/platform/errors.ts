import { Messages } from '@fmk/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/**
 * Domain errors. Services throw these; one handler maps them to HTTP, so no service knows HTTP.
 * `message` is shown to people, so it is the spec's words where the spec has them.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** Seconds until the caller may try again (a 429's Retry-After). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, 'invalid_input', message, fields);
export const unauthorized = (message: string = Messages.authRequired) => new AppError(401, 'unauthenticated', message);
export const forbidden = (message: string, code = 'forbidden') => new AppError(403, code, message);
export const notFound = (message: string = Messages.notFound) => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
/**
 * A rate limit. Every 429 carries Retry-After: the wait the limit knows, or a minute when the
 * limit is a count over a day whose next free slot is not worth computing.
 */
export const tooManyRequests = (message: string, retryAfterS = DEFAULT_RETRY_AFTER_S) =>
  new AppError(429, 'rate_limited', message, undefined, Math.max(1, Math.ceil(retryAfterS)));
const DEFAULT_RETRY_AFTER_S = 60;
/** A tier limit: 403 with the upgrade text, so the client can show the upgrade prompt. */
export const limitReached = (message: string) => new AppError(403, 'limit_reached', message);

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status === 429) reply.header('Retry-After', String(err.retryAfterS ?? DEFAULT_RETRY_AFTER_S));
      return reply
        .status(err.status)
        .send({ error: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const key =
          v.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
          (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ||
          '_';
        fields[key] ??= v.message ?? 'Invalid value';
      }
      const first = err.validation[0]?.message ?? 'Invalid input';
      return reply.status(400).send({ error: 'invalid_input', message: first, fields });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      if (status === 429 && !reply.hasHeader('Retry-After')) reply.header('Retry-After', String(DEFAULT_RETRY_AFTER_S));
      return reply.status(status).send({ error: err.code ?? 'bad_request', message: err.message });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'internal', message: Messages.somethingWentWrong });
  });
}
