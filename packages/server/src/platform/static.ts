import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app: pre-compressed (brotli/gzip files written at build), hashed assets
 * cached for a year, everything else revalidated, and history fallback to index.html for any
 * GET that is not an API or file path.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  const hasWeb = existsSync(index);
  // Screens a cold start opens straight into have their own copy of index.html that also
  // preloads the screen's code: <name>.html serves /<name> (the web build's fmk-route-pages
  // decides which).
  const routePages = new Map<string, string>(
    hasWeb
      ? readdirSync(webDist)
          .filter((f) => f.endsWith('.html') && f !== 'index.html')
          .map((f) => [`/${f.slice(0, -'.html'.length)}`, f] as const)
      : [],
  );
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      preCompressed: true,
      cacheControl: false,
      // '/' is the app's entry: serve index.html (revalidated) rather than refusing a directory.
      index: ['index.html'],
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ webDist }, 'web app not built; serving the API only (run npm run build)');
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const isApi = url.startsWith('/api/') || url === '/api' || url.startsWith('/files/');
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !isApi && !path.extname(url);
    if (hasWeb && wantsPage) {
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile(routePages.get(url) ?? 'index.html');
    }
    return reply.status(404).send({ error: 'not_found', message: `No route ${req.method} ${url}` });
  });
}
