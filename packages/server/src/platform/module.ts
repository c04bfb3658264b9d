import type { Clock } from '@fmk/core';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, Db } from '../db/index.ts';
import type { TokenService } from './auth.ts';
import type { BackgroundQueue } from './background.ts';
import type { Bus } from './bus.ts';
import type { Config } from './config.ts';
import type { Mailer } from './mail/mailer.ts';
import type { SignedUrls } from './media/signed-urls.ts';
import type { ServerMetrics } from './metrics.ts';
import type { Moderation } from './moderation/moderation.ts';
import type { PaymentProvider } from './payments/provider.ts';
import type { Notifier, PushService } from './push.ts';
import type { SmsProvider } from './sms/index.ts';
import type { Storage } from './storage.ts';

// The contract between the app and its feature modules. It lives here, below both, so that a
// module's routes never import the app or the registry that imports them.

/** What a feature module is given: only shared platform parts, never another module's internals. */
export interface AppDeps {
  config: Config;
  db: Db;
  dbKind: Database['kind'];
  clock: Clock;
  tokens: TokenService;
  /** Short-lived signed URLs for private files (chat photos). */
  signedUrls: SignedUrls;
  storage: Storage;
  /** Live events to users (in-process on PGlite, LISTEN/NOTIFY on PostgreSQL). */
  bus: Bus;
  /** Web Push sender and subscriptions (disabled without VAPID keys). */
  push: PushService;
  /**
   * Push notifications for events (new message, new match): sent only when the user has no open
   * live socket and allows pushes. Call after the transaction commits; never throws.
   */
  notifier: Notifier;
  /** Outgoing mail (SMTP, or the development outbox); `send` queues and never throws. */
  mail: Mailer;
  /** Texts (Twilio, or the development outbox); null when SMS is off (SMS_ENABLED=false). */
  sms: SmsProvider | null;
  /** Photo moderation: the model in a worker thread, the items, staff's decisions (platform/moderation). */
  moderation: Moderation;
  /** The payment provider: the built-in sandbox, or Square when configured (platform/payments). */
  payments: PaymentProvider;
  /** The server's own figures (request latency and errors, event-loop delay) for system/health. */
  metrics: ServerMetrics;
  /** Work after a request answers (the screening of sent texts), a few tasks at a time; the app settles it. */
  background: BackgroundQueue;
}

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
