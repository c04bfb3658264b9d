import {
  LIVE_AUTH_TIMEOUT_MS,
  LIVE_CLOSE_TOO_MANY_FRAMES,
  LIVE_CLOSE_UNAUTHORIZED,
  type LiveServerEvent,
  liveCallSignal,
  liveNotificationKind,
  Messages,
  type NotificationSettings,
  notificationAllowed,
} from '@fmk/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { loadActor } from '../../platform/access.ts';
import { resolveToken } from '../../platform/auth.ts';
import { type LiveEvent, SESSION_ENDED } from '../../platform/bus.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import type { Module } from '../../platform/module.ts';
import { WindowLimiter } from '../../platform/protections/window.ts';
import { CallsService } from '../calls/service.ts';
import { MessagingService } from '../messaging/service.ts';
import { settingsOf } from '../settings/service.ts';
import { PingWheel } from './pinger.ts';
import { Presence } from './presence.ts';

export const FOREIGN_ORIGIN = 'This origin may not open the live channel.';

/** Protocol pings: a socket that has not answered the previous one is dropped. */
const HEARTBEAT_MS = 30_000;
/** The heartbeat's pings go out in this many slices, one a second (pinger.ts). */
const PING_SLICES = 30;

function send(socket: WebSocket, event: LiveServerEvent | LiveEvent): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
}

function parse(data: unknown): { type?: unknown; token?: unknown } | null {
  try {
    const v: unknown = JSON.parse(String(data));
    return typeof v === 'object' && v !== null ? (v as { type?: unknown; token?: unknown }) : null;
  } catch {
    return null;
  }
}

/**
 * The in-app switches, enforced where the event leaves the server: an event that notifies (a
 * message to him, a new match, a super, a safety alert) goes out marked `quiet` when his in-app
 * switch for its kind is off. The event itself still goes: it is what updates his screens (the
 * conversation, the badge, the lists); only the notification it carries is withheld.
 */
function quietUnlessAllowed(event: LiveEvent, uid: string, switches: NotificationSettings | null): LiveEvent {
  const kind = liveNotificationKind(event, uid);
  if (!kind || !switches || notificationAllowed(switches, kind, 'inApp')) return event;
  return { ...event, quiet: true };
}

/** Deliveries noted within this window are written together (one UPDATE for all of them). */
const DELIVERY_FLUSH_MS = 20;

/**
 * The live channel, GET /api/v1/live (protocol in core's live.ts). The first message must be
 * {type:'auth', token} (browsers cannot set headers on a WebSocket); then the user's events from
 * the bus are forwarded, and presence follows the user's open sockets (on every instance).
 * A message event written to its recipient's socket marks it delivered (the sender hears
 * {type:'delivered'}).
 */
export const liveModule: Module = async (app, deps) => {
  const presence = new Presence(deps.db, deps.clock, deps.bus, (err) => app.log.warn({ err }, 'presence write failed'));
  const messaging = new MessagingService(deps);
  const calls = new CallsService({ ...deps, log: app.log });
  /** A call's signal sent on the socket: the same rules as POST /calls/:id/signal, a refusal answered on the socket. */
  const callSignal = async (socket: WebSocket, userId: string, raw: unknown) => {
    const parsed = liveCallSignal.safeParse(raw);
    const callId = typeof (raw as { callId?: unknown }).callId === 'string' ? (raw as { callId: string }).callId : '';
    const refuse = (status: number, message: string) => send(socket, { type: 'call-error', callId, status, message });
    if (!parsed.success) return refuse(400, parsed.error.issues[0]?.message ?? 'Invalid signal');
    const actor = await loadActor(deps.db, userId);
    if (!actor) return refuse(401, Messages.authRequired);
    try {
      await calls.signal(actor, parsed.data.callId, parsed.data.device, parsed.data.signal);
    } catch (err) {
      if (err instanceof AppError) return refuse(err.status, err.message);
      throw err;
    }
  };
  const deliveries = new Map<string, { receiverId: string; conversationId: string; upTo: number }>();
  const deliveryWrites = new Set<Promise<void>>();
  let deliveryTimer: NodeJS.Timeout | null = null;
  const flushDeliveries = () => {
    deliveryTimer = null;
    const p = messaging
      .markDelivered([...deliveries.values()])
      .catch((err: unknown) => app.log.warn({ err }, 'delivery write failed'));
    deliveries.clear();
    deliveryWrites.add(p);
    void p.finally(() => deliveryWrites.delete(p));
  };
  const delivered = (receiverId: string, event: LiveEvent) => {
    const m = (event as { message?: { receiverId?: string; conversationId?: string; seq?: number } }).message;
    if (event.type !== 'message' || m?.receiverId !== receiverId || !m.conversationId || typeof m.seq !== 'number') return;
    const key = `${receiverId}:${m.conversationId}`;
    const prev = deliveries.get(key);
    deliveries.set(key, { receiverId, conversationId: m.conversationId, upTo: Math.max(prev?.upTo ?? 0, m.seq) });
    deliveryTimer ??= setTimeout(flushDeliveries, DELIVERY_FLUSH_MS);
  };
  const pings = new PingWheel<WebSocket>(PING_SLICES);
  const pinging = setInterval(() => pings.tick(), HEARTBEAT_MS / PING_SLICES);
  pinging.unref();
  const heartbeat = setInterval(() => {
    presence.heartbeat().catch((err: unknown) => app.log.warn({ err }, 'presence heartbeat failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  // preClose: the database is still open (the app's onClose closes it).
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    clearInterval(pinging);
    for (const s of [...pings.sockets()]) s.terminate();
    if (deliveryTimer) clearTimeout(deliveryTimer);
    flushDeliveries();
    await Promise.all(deliveryWrites);
    await presence.closeAll();
  });

  // A page of another site must not open a member's live channel with his token (cross-site
  // WebSocket hijacking): a browser always names the page's origin, which must be ours.
  const ownOrigins = new Set([new URL(deps.config.publicUrl).origin, ...deps.config.allowedOrigins]);
  const refuseForeignOrigin = (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const origin = req.headers.origin;
    const same = `${req.protocol}://${req.host}`;
    done(origin === undefined || origin === same || ownOrigins.has(origin) ? undefined : forbidden(FOREIGN_ORIGIN));
  };

  app.get(
    '/live',
    {
      websocket: true,
      onRequest: refuseForeignOrigin,
      schema: { tags: ['live'], summary: 'Live events (WebSocket)', hide: true },
    },
    (socket, req) => {
      let userId: string | null = null;
      let connectionId: string | null = null;
      let unsubscribe: (() => void) | null = null;
      let expiry: NodeJS.Timeout | null = null;
      pings.add(socket);
      socket.on('pong', () => pings.pong(socket));

      const reject = () => socket.close(LIVE_CLOSE_UNAUTHORIZED, Messages.authRequired);
      // A socket's frames a second (LIVE_FRAMES_PER_SECOND): a flood closes it (their size is maxPayload's, app.ts).
      const frames = new WindowLimiter(deps.config.rateLimits.liveFramesPerSecond, 1000, deps.clock);
      const authTimer = setTimeout(reject, LIVE_AUTH_TIMEOUT_MS);

      const authenticate = async (token: unknown) => {
        const auth = await resolveToken(deps.db, deps.tokens, deps.clock, typeof token === 'string' ? token : null);
        if (!auth) return reject();
        if (socket.readyState !== socket.OPEN) return;
        const uid = auth.userId;
        userId = uid;
        // His notification switches, read again whenever he saves his settings (any instance).
        let switches: NotificationSettings | null = null;
        const readSwitches = async () => {
          switches = (await settingsOf(deps.db, uid))?.notifications ?? null;
        };
        await readSwitches();
        if (socket.readyState !== socket.OPEN) return;
        unsubscribe = deps.bus.subscribe(uid, (event) => {
          if (socket.readyState !== socket.OPEN) return;
          if (event.type === SESSION_ENDED) {
            if (event.sessionId === auth.sessionId) reject();
            return;
          }
          if (event.type === 'refetch' && event.of === 'settings')
            readSwitches().catch((err: unknown) => req.log.warn({ err }, 'live settings read failed'));
          send(socket, quietUnlessAllowed(event, uid, switches));
          delivered(uid, event);
        });
        connectionId = presence.connected(uid);
        // A socket outlives no token: at its expiry the client reconnects with a fresh one.
        const left = auth.expiresAt.getTime() - deps.clock.now().getTime();
        expiry = setTimeout(reject, Math.max(0, Math.min(left, 2 ** 31 - 1)));
        expiry.unref();
        send(socket, { type: 'ready', uid: userId });
      };

      let authStarted = false;
      socket.on('message', (data) => {
        if (socket.readyState !== socket.OPEN) return;
        if (frames.take('') > 0) return socket.close(LIVE_CLOSE_TOO_MANY_FRAMES, 'Too many frames');
        const msg = parse(data);
        if (!authStarted) {
          authStarted = true;
          clearTimeout(authTimer);
          if (msg?.type !== 'auth') return reject();
          authenticate(msg.token).catch((err: unknown) => {
            req.log.warn({ err }, 'live auth failed');
            reject();
          });
          return;
        }
        if (msg?.type === 'ping') send(socket, { type: 'pong' });
        else if (msg?.type === 'call-signal' && userId)
          callSignal(socket, userId, msg).catch((err: unknown) => req.log.warn({ err }, 'call signal failed'));
      });

      socket.on('close', () => {
        clearTimeout(authTimer);
        if (expiry) clearTimeout(expiry);
        pings.remove(socket);
        unsubscribe?.();
        if (userId && connectionId) presence.disconnected(userId, connectionId);
      });
    },
  );
};
