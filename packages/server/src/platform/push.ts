import { type AlertSeverity, type Clock, truncatePushText } from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Db } from '../db/index.ts';
import type { VapidConfig } from './config.ts';
import * as repo from './push/repo.ts';

/** What a notification shows; the service worker (packages/web/src/sw.ts) reads these fields. */
export interface PushMessage {
  title: string;
  body: string;
  /** The screen a click opens, e.g. /messages/<conversationId>. */
  url: string;
  /** Notifications with one tag replace each other (one per conversation). */
  tag?: string;
}

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushResult {
  sent: number;
  /** Subscriptions the push service called gone (404/410), now deleted. */
  removed: number;
  failed: number;
}

export interface NewMessageNotice {
  toUserId: string;
  fromName: string | null;
  text: string;
  conversationId: string;
}

export interface IncomingCallNotice {
  toUserId: string;
  fromName: string | null;
  kind: 'video' | 'voice';
  conversationId: string | null;
  callId: string;
}

export interface NewMatchNotice {
  toUserId: string;
  otherName: string | null;
  conversationId: string | null;
}

/** Someone picked him (fuck or marry) and he has not answered: `count` is his pending likes. */
export interface NewLikeNotice {
  toUserId: string;
  fromName: string | null;
  count: number;
}

/** A safety alert raised for him (modules/safety/alerts.ts). */
export interface SafetyAlertNotice {
  toUserId: string;
  alertId: string;
  severity: AlertSeverity;
  title: string;
  message: string;
}

/**
 * Push notifications for events (modules/notifications/notifier.ts): a push goes only to a user with no open live socket
 * (users.is_online, kept by the live module's presence) who allows pushes
 * (user_settings.push_notifications_enabled). Calls return at once; delivery runs in the
 * background and never throws into the caller. `settle()` waits for what is in flight.
 */
export interface Notifier {
  newMessage(n: NewMessageNotice): Promise<void>;
  newMatch(n: NewMatchNotice): Promise<void>;
  /** A call ringing for a user with no open tab, who would otherwise never know. */
  incomingCall(n: IncomingCallNotice): Promise<void>;
  newLike(n: NewLikeNotice): Promise<void>;
  safetyAlert(n: SafetyAlertNotice): Promise<void>;
  settle(): Promise<void>;
}

/** A push service keeps an undeliverable message this long (seconds). */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
const SEND_TIMEOUT_MS = 10_000;

/**
 * Web Push (RFC 8030/8291/8292): the payload is encrypted (aes128gcm) and VAPID-signed
 * by web-push's generateRequestDetails; the request itself goes out with fetch, so it works
 * for https push services and for a local http endpoint in tests. Without VAPID keys it is
 * disabled: sends nothing, and the app logs 'Push disabled: no VAPID key configured' once.
 */
export class PushService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      vapid: VapidConfig | null;
      log: FastifyBaseLogger;
      fetch?: typeof fetch;
    },
  ) {}

  get enabled(): boolean {
    return this.deps.vapid !== null;
  }

  /** The application server key the browser subscribes with (GET /api/v1/config). */
  get publicKey(): string | null {
    return this.deps.vapid?.publicKey ?? null;
  }

  /** Stores (or refreshes) a browser's subscription; the user record follows the newest. */
  async subscribe(userId: string, sub: PushSubscriptionInput, userAgent: string | null): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const { endpoint, keys } = sub;
      await repo.upsertSubscription(trx, { userId, endpoint, ...keys, userAgent: userAgent?.slice(0, 300) ?? null, at: now });
      await repo.syncUserToken(trx, userId);
    });
  }

  /** Forgets a subscription of this user (sign-out, or the browser unsubscribed). */
  async unsubscribe(userId: string, endpoint: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      if (await repo.deleteSubscription(trx, userId, endpoint)) await repo.syncUserToken(trx, userId);
    });
  }

  /** Sends to every subscription of the user. Never throws: failures are logged. */
  async send(userId: string, message: PushMessage): Promise<PushResult> {
    const result: PushResult = { sent: 0, removed: 0, failed: 0 };
    const vapid = this.deps.vapid;
    if (!vapid) return result;
    const subs = await repo.subscriptionsOf(this.deps.db, userId);
    const payload = JSON.stringify({
      title: message.title,
      body: truncatePushText(message.body),
      url: message.url,
      ...(message.tag ? { tag: message.tag } : {}),
    });
    await Promise.all(
      subs.map(async (s) => {
        const outcome = await this.deliver(vapid, { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload);
        if (outcome === 'gone') {
          await this.removeGone(userId, s.id);
          result.removed += 1;
        } else if (outcome === 'ok') result.sent += 1;
        else result.failed += 1;
      }),
    );
    return result;
  }

  private async deliver(vapid: VapidConfig, sub: PushSubscriptionInput, payload: string): Promise<'ok' | 'gone' | 'failed'> {
    const origin = safeOrigin(sub.endpoint);
    try {
      const details = webpush.generateRequestDetails(sub, payload, {
        vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        urgency: 'high',
      });
      const res = await (this.deps.fetch ?? fetch)(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body ? new Uint8Array(details.body) : null,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status === 404 || res.status === 410) return 'gone';
      if (res.status >= 200 && res.status < 300) return 'ok';
      this.deps.log.warn({ status: res.status, pushService: origin }, 'push delivery refused');
      return 'failed';
    } catch (err) {
      this.deps.log.warn({ err, pushService: origin }, 'push delivery failed');
      return 'failed';
    }
  }

  private async removeGone(userId: string, id: string): Promise<void> {
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await repo.deleteSubscriptionById(trx, id);
        await repo.syncUserToken(trx, userId);
      });
    } catch (err) {
      this.deps.log.warn({ err }, 'could not delete an expired push subscription');
    }
  }
}

/** Where a push goes, for logs: the origin only (the endpoint path is a secret capability). */
function safeOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * Push endpoints a browser may register: https only in production; outside production also
 * http://127.0.0.1 and http://localhost (a local push endpoint in tests).
 */
export function validPushEndpoint(endpoint: string, env: 'development' | 'production' | 'test'): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return env !== 'production' && url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
}
