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
import { type Bus, LocalBus, PgBus } from './platform/bus.ts';
import { registerApiCompression } from './platform/compress.ts';
import type { Config } from './platform/config.ts';
import { registerErrorHandler } from './platform/errors.ts';
import { createMailer, type Mailer } from './platform/mail/mailer.ts';
import { registerFileRoutes } from './platform/media/files.ts';
import { Moderation } from './platform/moderation/moderation.ts';
import { NsfwScorer } from './platform/moderation/scorer.ts';
import type { AppDeps } from './platform/module.ts';
import { createPaymentProvider } from './platform/payments/index.ts';
import { type Notifier, PushService } from './platform/push.ts';
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
  /** Defaults to the database's: LISTEN/NOTIFY on PostgreSQL, in-process on PGlite. */
  bus?: Bus;
  /** Defaults to the configuration's: SMTP_URL's server, or the outbox folder. */
  mailer?: Mailer;
  logger?: boolean;
}

/**
 * The security headers of an API answer: JSON, never rendered as a page, so the OWASP REST set
 * (a CSP that allows nothing and no framing, HSTS, nosniff, no referrer) rather than helmet's
 * page set, whose script, style and image sources only mean something to a document. Half the
 * headers, on the answers that are most of the traffic (a trivial route's req/s is measured by bench/http.ts).
 */
const API_SECURITY_HEADERS = {
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
        : { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
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
        upgradeInsecureRequests: null,
      },
    },
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
  // Live channel (/api/v1/live): 64 KB is plenty for the client's small control messages.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(multipart, { limits: { fileSize: config.maxPhotoBytes, files: 1, fields: 5 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'FMK API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

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
    storage,
    bus:
      opts.bus ??
      (database.kind === 'postgres' && database.url
        ? await PgBus.create({ url: database.url, schema: database.schema, db: database.db, log: app.log })
        : new LocalBus()),
    push,
    notifier: new PushNotifier({ db: database.db, push, log: app.log, mail, publicUrl: config.publicUrl }),
    mail,
    sms: createSmsProvider(config, app.log),
    payments: createPaymentProvider(config.payments),
    moderation: new Moderation({
      db: database.db,
      storage,
      scorer: config.moderation.enabled ? new NsfwScorer() : null,
      holdAt: config.moderation.holdAt,
      now: () => clock.now(),
      log: app.log,
    }),
  };
  if (!deps.moderation.enabled) app.log.warn('Photo moderation off: MODERATION_ENABLED=false');
  if (!deps.sms) app.log.warn('Phone verification off: SMS_ENABLED=false');

  // Tests and benchmarks wait on it (`app.moderation.settle()`): uploads do not.
  app.decorate('moderation', deps.moderation);
  app.decorate('notifier', {
    settle: async () => {
      await deps.notifier.settle();
      await deps.mail.settle();
    },
  });
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/api/')) req.auth = await resolveAuth(deps.db, tokens, clock, req);
  });

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
    await deps.notifier.settle();
    await deps.mail.close();
    await deps.bus.close();
    await database.close();
  });
  return app;
}
