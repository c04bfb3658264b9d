import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { type Clock, movableClock, systemClock } from '@fmk/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { checkDatabase, type Database } from './db/index.ts';
import { modules } from './modules/index.ts';
import { PushNotifier } from './modules/notifications/notifier.ts';
import { resolveAuth, TokenService } from './platform/auth.ts';
import { BackgroundQueue } from './platform/background.ts';
import { createBus } from './platform/bus/create.ts';
import type { Bus } from './platform/bus.ts';
import { registerApiCompression } from './platform/compress.ts';
import type { Config } from './platform/config.ts';
import { registerErrorHandler } from './platform/errors.ts';
import { createMailer, type Mailer } from './platform/mail/mailer.ts';
import { registerFileRoutes } from './platform/media/files.ts';
import { photoWorkIdle } from './platform/media/image.ts';
import { SignedUrls } from './platform/media/signed-urls.ts';
import { installMetrics, ServerMetrics } from './platform/metrics.ts';
import { Moderation } from './platform/moderation/moderation.ts';
import { NsfwScorer } from './platform/moderation/scorer.ts';
import type { AppDeps } from './platform/module.ts';
import { createPaymentProvider } from './platform/payments/index.ts';
import { type Notifier, PushService } from './platform/push.ts';
import { installRouteGuards } from './platform/routes.ts';
import { createSmsProvider } from './platform/sms/index.ts';
import { installStaffGate } from './platform/staff-gate.ts';
import { registerWebApp } from './platform/static.ts';
import { LocalDiskStorage, type Storage } from './platform/storage.ts';

export type App = FastifyInstance;

/** The origins a tile URL template loads from ({s} subdomains become a wildcard). */
function tileOrigins(url: string | null): string[] {
  if (!url) return [];
  const m = /^(https?:\/\/[^/]+)/.exec(url.replace('{s}', '*'));
  return m?.[1] ? [m[1]] : [];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Photo moderation, for tests and benchmarks to wait until every photo is scored. */
    moderation: Moderation;
    /** Pushes and mails for events, for tests to wait until every one in flight is delivered. */
    notifier: Pick<Notifier, 'settle'>;
  }
}

export interface CreateAppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  storage?: Storage;
  /** Defaults to the configuration's: NATS with BUS_URL, else LISTEN/NOTIFY on PostgreSQL, in-process on PGlite. */
  bus?: Bus;
  /** Defaults to the configuration's: SMTP_URL's server, or the outbox folder. */
  mailer?: Mailer;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read what the server logs). */
  logStream?: { write(line: string): void };
}

/**
 * The security headers of an API answer: JSON, never rendered as a page, so the OWASP REST set
 * (a CSP that allows nothing and no framing, HSTS, nosniff, no referrer) rather than helmet's
 * page set, whose script, style and image sources only mean something to a document. Half the
 * headers, on the answers that are most of the traffic (a trivial route's req/s is measured by bench/http.ts).
 * No API answer is stored by a browser or a proxy (most are personal; a token is in some): a
 * route that may be cached says so itself (a chat photo on its signed URL, privately).
 */
/**
 * Background tasks at once: each holds at most one pool connection at a time (the pool has 10),
 * so requests keep the rest however far the background work falls behind at a burst.
 */
const BACKGROUND_CONCURRENCY = 2;

const API_SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** Builds the whole server (API, docs, web app) without listening, so tests can `inject` into it. */
export async function createApp(opts: CreateAppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  // TEST_CLOCK (end-to-end tests; refused in production): real time plus an offset tests can move.
  const clock = opts.clock ?? (config.testClock ? movableClock() : systemClock);
  const app = Fastify({
    logger:
      opts.logger === false || config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            ...(opts.logStream ? { stream: opts.logStream } : {}),
          },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  // Square's Web Payments SDK, only when Square is configured: its script, frames and API hosts.
  const square =
    config.payments.kind === 'square'
      ? config.payments.environment === 'production'
        ? ['https://web.squarecdn.com', 'https://pci-connect.squareup.com']
        : ['https://sandbox.web.squarecdn.com', 'https://pci-connect.squareupsandbox.com']
      : [];
  // Security headers, built once: @fastify/helmet rebuilt helmet (and re-parsed the CSP) on
  // every request, the largest part of a small request's cost after the socket write.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The cruise map's tile server, when one is configured: its tiles are images from another origin.
        imgSrc: ["'self'", 'data:', 'blob:', ...tileOrigins(config.mapTileUrl)],
        styleSrc: ["'self'", "'unsafe-inline'", ...square],
        scriptSrc: ["'self'", ...square],
        connectSrc: ["'self'", 'ws:', 'wss:', ...square],
        frameSrc: ["'self'", ...square],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        // No page of ours is shown in a frame, not even our own (clickjacking).
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (req, reply, done) => {
    if (req.url.startsWith('/api/') && !req.url.startsWith('/api/docs')) {
      reply.headers(API_SECURITY_HEADERS);
      done();
      return;
    }
    securityHeaders(req.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
  registerApiCompression(app);
  const metrics = new ServerMetrics();
  installMetrics(app, metrics);
  // Live channel (/api/v1/live): LIVE_MAX_FRAME_KB (64 KB) is plenty for the client's small control messages.
  await app.register(websocket, { options: { maxPayload: config.rateLimits.liveMaxFrameBytes } });
  await app.register(multipart, { limits: { fileSize: config.maxPhotoBytes, files: 1, fields: 5 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'FMK API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (csp) => csp.replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  });

  const tokens = new TokenService(config.tokenSecret, config.accessTokenTtlMinutes, clock);
  const push = new PushService({ db: database.db, clock, vapid: config.vapid, log: app.log });
  if (!push.enabled) app.log.warn('Push disabled: no VAPID key configured');
  const storage = opts.storage ?? new LocalDiskStorage(config.filesDir);
  const mail = opts.mailer ?? createMailer(config, app.log);
  const deps: AppDeps = {
    config,
    db: database.db,
    dbKind: database.kind,
    clock,
    tokens,
    signedUrls: new SignedUrls(config.tokenSecret, clock),
    storage,
    bus: opts.bus ?? (await createBus(config, database, app.log)),
    push,
    notifier: new PushNotifier({ db: database.db, push, log: app.log, mail, publicUrl: config.publicUrl }),
    mail,
    sms: createSmsProvider(config, app.log),
    payments: createPaymentProvider(config.payments),
    metrics,
    background: new BackgroundQueue(BACKGROUND_CONCURRENCY, (err) => app.log.warn({ err }, 'background task failed')),
    moderation: new Moderation({
      db: database.db,
      storage,
      scorer: config.moderation.enabled ? new NsfwScorer() : null,
      holdAt: config.moderation.holdAt,
      now: () => clock.now(),
      log: app.log,
      foregroundIdle: photoWorkIdle,
    }),
  };
  if (!deps.moderation.enabled) app.log.warn('Photo moderation off: MODERATION_ENABLED=false');
  if (!deps.sms) app.log.warn('Phone verification off: SMS_ENABLED=false');

  // Tests and benchmarks wait on it (`app.moderation.settle()`): uploads do not.
  app.decorate('moderation', deps.moderation);
  app.decorate('notifier', {
    settle: async () => {
      // The screening of a text may raise an alert, which may push and mail.
      await deps.background.settle();
      await deps.notifier.settle();
      await deps.mail.settle();
    },
  });
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/api/')) req.auth = await resolveAuth(deps.db, tokens, clock, req);
  });

  // Before any route: the route list, and requireAuth ahead of validation on every route.
  installRouteGuards(app);
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/health', { schema: { tags: ['system'], summary: 'Liveness and database check' } }, async () => {
      await checkDatabase(deps.db);
      return { status: 'ok', database: database.kind, time: clock.now().toISOString() };
    });

  // Before any module: every /admin route gets the staff gate its row in core's ADMIN_ROUTES names.
  installStaffGate(app, deps.db);
  for (const mod of modules) {
    await app.register(async (scope) => mod(scope.withTypeProvider<ZodTypeProvider>(), deps), { prefix: '/api/v1' });
  }

  await registerFileRoutes(app, deps);
  await registerWebApp(app, config.webDist);
  app.addHook('onClose', async () => {
    await deps.moderation.close();
    await deps.background.settle();
    await deps.notifier.settle();
    await deps.mail.close();
    await deps.bus.close();
    await database.close();
  });
  return app;
}
