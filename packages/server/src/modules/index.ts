import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../app.ts';

/** The Fastify instance a feature module gets: zod schemas type its requests and replies. */
export type ZodFastify = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
/** A feature module registers its routes under /api/v1. */
export type Module = (app: ZodFastify, deps: AppDeps) => Promise<void>;

/** Every feature module, in registration order. */
export const modules: Module[] = [];
