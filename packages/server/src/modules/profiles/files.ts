import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.ts';
import { notFound } from '../../platform/errors.ts';

/**
 * GET /files/* serves stored photos. Keys carry a random id and never change, so responses are
 * cached for a year; only our own re-encoded WebP files are ever served.
 */
export async function registerFileRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'storage'>): Promise<void> {
  app.get('/files/*', { schema: { hide: true } }, async (req, reply) => {
    const key = (req.params as { '*'?: string })['*'] ?? '';
    if (!key.startsWith('photos/') || !key.endsWith('.webp')) throw notFound();
    const object = await deps.storage.get(key);
    if (!object) throw notFound();
    return reply
      .header('Content-Type', 'image/webp')
      .header('Content-Length', object.size)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('X-Content-Type-Options', 'nosniff')
      .send(object.stream);
  });
}
