import type { LiveServerEvent } from '@fmk/core';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';

/** A `ws` client of the live channel (Node 20 has no WebSocket: STACK.md trap 11) with an event queue. */
export interface LiveClient {
  ws: WebSocket;
  events: LiveServerEvent[];
  /** The next event of `type` not yet taken (waits up to `ms`). */
  next<T extends LiveServerEvent['type']>(type: T, ms?: number): Promise<Extract<LiveServerEvent, { type: T }>>;
  /** Resolves with the close code. */
  closed: Promise<number>;
  close(): Promise<void>;
}

/** The ws:// URL of the app's live channel; the app must listen (use `listening(app)`). */
export async function liveUrl(app: FastifyInstance): Promise<string> {
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return liveUrl(app);
  }
  return `ws://127.0.0.1:${addr.port}/api/v1/live`;
}

export async function openLive(app: FastifyInstance, token?: string): Promise<LiveClient> {
  const ws = new WebSocket(await liveUrl(app));
  const events: LiveServerEvent[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    events.push(JSON.parse(String(data)) as LiveServerEvent);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const client: LiveClient = {
    ws,
    events,
    closed,
    async next(type, ms = 3000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const i = events.findIndex((e) => e.type === type);
        if (i >= 0) return events.splice(i, 1)[0] as never;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no '${type}' event within ${ms} ms (got ${JSON.stringify(events)})`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    async close() {
      if (ws.readyState !== ws.CLOSED) {
        ws.close();
        await closed;
      }
    },
  };
  if (token !== undefined) {
    ws.send(JSON.stringify({ type: 'auth', token }));
    await client.next('ready');
  }
  return client;
}
