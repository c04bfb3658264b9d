import { createHmac, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { type Call, CallMessages, type Message, VIDEO_CALL_UPSELL } from '@fmk/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { block, setTier, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, openTestDatabase, type TestApp, testConfig, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { createApp } from '../../app.ts';
import { openDatabase } from '../../db/index.ts';

type User = Awaited<ReturnType<typeof signUpMember>>;
type Db = TestApp['db'];

const select = (app: FastifyInstance, from: User, to: User) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/selections',
    headers: from.headers,
    payload: { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() },
  });

/** Two members who chose each other (sign-ups here are lifetime Premium beta users). */
async function pair(app: FastifyInstance, db: Db): Promise<{ a: User; b: User; conversationId: string }> {
  const [a, b] = [await signUpMember(app, db), await signUpMember(app, db)];
  expect((await select(app, a, b)).statusCode).toBe(200);
  const res = await select(app, b, a);
  expect(res.statusCode).toBe(200);
  return { a, b, conversationId: res.json().match.conversationId as string };
}

const DEV_A = 'tab-a-000001';
const DEV_B = 'tab-b-000001';

const api = (app: FastifyInstance, u: User, method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });
const start = (app: FastifyInstance, from: User, to: User, kind = 'video') =>
  api(app, from, 'POST', '/calls', { userId: to.user.uid, kind, device: DEV_A });
const lines = async (app: FastifyInstance, u: User, conversationId: string) =>
  ((await api(app, u, 'GET', `/conversations/${conversationId}/messages`)).json().messages as Message[])
    .filter((m) => m.type === 'call')
    .map((m) => m.content);

describe.each(DB_KINDS)('calls on %s', (kind) => {
  const t = useTestApp(kind, { env: { CALL_SWEEP_MS: '100' } });

  it('lets a Premium member call a match; refuses a free caller (upgrade text), a stranger, a block and bad input', async () => {
    const { app, db } = t();
    const { a, b } = await pair(app, db);
    const stranger = await signUpMember(app, db);

    await setTier(db, a.user.uid, 'free');
    const free = await start(app, a, b);
    expect(free.statusCode).toBe(403);
    expect(free.json()).toMatchObject({ error: 'limit_reached', message: VIDEO_CALL_UPSELL });
    // A free member may still be called.
    const toFree = await start(app, b, a);
    expect(toFree.statusCode).toBe(201);
    expect(toFree.json()).toMatchObject({ state: 'ringing', callerId: b.user.uid, calleeId: a.user.uid, kind: 'video' });
    expect((await api(app, b, 'POST', `/calls/${toFree.json().id}/hangup`)).json()).toMatchObject({
      state: 'ended',
      outcome: 'missed',
    });

    expect((await start(app, b, stranger)).statusCode).toBe(404);
    expect((await start(app, b, b)).statusCode).toBe(404);
    const bad = await api(app, b, 'POST', '/calls', { userId: a.user.uid, kind: 'fax', device: DEV_A });
    expect(bad.statusCode).toBe(400);
    expect((await api(app, b, 'POST', '/calls', { userId: a.user.uid })).statusCode).toBe(400);

    await block(db, a.user.uid, b.user.uid);
    expect((await start(app, b, a)).statusCode).toBe(404);
    const count = await db
      .selectFrom('calls')
      .select((s) => s.fn.countAll().as('n'))
      .where('caller_id', '=', b.user.uid)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('rings, connects, relays offer, answer and candidates between the two tabs, and leaves the line with the duration', async () => {
    const { app, db, clock } = t();
    const { a, b, conversationId } = await pair(app, db);
    const [la, lb] = [await openLive(app, a.token), await openLive(app, b.token)];

    const res = await start(app, a, b);
    expect(res.statusCode).toBe(201);
    const call = res.json() as Call;
    expect(call.other.uid).toBe(b.user.uid);
    const ringing = await lb.next('call');
    expect(ringing.call).toMatchObject({ id: call.id, state: 'ringing', other: { uid: a.user.uid }, conversationId });
    expect((await api(app, b, 'GET', '/calls/current')).json()).toMatchObject({ id: call.id, state: 'ringing' });

    // No signal before the call is answered; a third user cannot touch it.
    const offer = { kind: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' };
    expect((await api(app, a, 'POST', `/calls/${call.id}/signal`, { device: DEV_A, signal: offer })).statusCode).toBe(409);
    const other = await signUpMember(app, db);
    expect((await api(app, other, 'POST', `/calls/${call.id}/accept`, { device: DEV_B })).statusCode).toBe(404);
    expect((await api(app, a, 'POST', `/calls/${call.id}/accept`, { device: DEV_A })).statusCode).toBe(404);

    const accepted = await api(app, b, 'POST', `/calls/${call.id}/accept`, { device: DEV_B });
    expect(accepted.json()).toMatchObject({ state: 'active', calleeDevice: DEV_B });
    expect((await la.next('call')).call).toMatchObject({ state: 'ringing' });
    expect((await la.next('call')).call).toMatchObject({ state: 'active', calleeDevice: DEV_B });
    expect((await lb.next('call')).call).toMatchObject({ state: 'active' });

    expect((await api(app, a, 'POST', `/calls/${call.id}/signal`, { device: DEV_A, signal: offer })).statusCode).toBe(204);
    expect(await lb.next('call-signal')).toEqual({ type: 'call-signal', callId: call.id, device: DEV_B, signal: offer });
    const answer = { kind: 'answer', sdp: 'v=0\r\nanswer\r\n' };
    expect((await api(app, b, 'POST', `/calls/${call.id}/signal`, { device: DEV_B, signal: answer })).statusCode).toBe(204);
    expect((await la.next('call-signal')).signal).toEqual(answer);
    const ice = {
      kind: 'ice',
      candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 },
    };
    expect((await api(app, b, 'POST', `/calls/${call.id}/signal`, { device: DEV_B, signal: ice })).statusCode).toBe(204);
    expect((await la.next('call-signal')).signal).toEqual(ice);
    // Another tab of B, a stranger, or something that is not a signal: refused.
    expect((await api(app, b, 'POST', `/calls/${call.id}/signal`, { device: 'tab-b-other', signal: ice })).statusCode).toBe(409);
    expect((await api(app, other, 'POST', `/calls/${call.id}/signal`, { device: DEV_B, signal: ice })).statusCode).toBe(404);
    expect(
      (await api(app, a, 'POST', `/calls/${call.id}/signal`, { device: DEV_A, signal: { kind: 'media', data: 'x' } })).statusCode,
    ).toBe(400);

    // The same signals on the live socket itself (what the web app sends when its socket is up).
    la.ws.send(JSON.stringify({ type: 'call-signal', callId: call.id, device: DEV_A, signal: ice }));
    expect(await lb.next('call-signal')).toEqual({ type: 'call-signal', callId: call.id, device: DEV_B, signal: ice });
    lb.ws.send(JSON.stringify({ type: 'call-signal', callId: call.id, device: 'tab-b-other', signal: ice }));
    expect(await lb.next('call-error')).toEqual({
      type: 'call-error',
      callId: call.id,
      status: 409,
      message: CallMessages.notYourDevice,
    });
    lb.ws.send(JSON.stringify({ type: 'call-signal', callId: call.id, device: DEV_B, signal: { kind: 'media' } }));
    expect(await lb.next('call-error')).toMatchObject({ callId: call.id, status: 400 });

    clock.advance(4 * 60_000);
    const ended = await api(app, b, 'POST', `/calls/${call.id}/hangup`);
    expect(ended.json()).toMatchObject({ state: 'ended', outcome: 'finished' });
    for (const l of [la, lb]) {
      expect((await l.next('call')).call).toMatchObject({ state: 'ended', outcome: 'finished' });
      expect((await l.next('message')).message).toMatchObject({ type: 'call', content: 'Video call, 4 min', conversationId });
    }
    expect(await lines(app, a, conversationId)).toEqual(['Video call, 4 min']);
    expect(await lines(app, b, conversationId)).toEqual(['Video call, 4 min']);
    // Hanging up again changes nothing and writes no second line.
    expect((await api(app, a, 'POST', `/calls/${call.id}/hangup`)).json()).toMatchObject({ outcome: 'finished' });
    expect(await lines(app, a, conversationId)).toHaveLength(1);
    expect((await api(app, b, 'GET', '/calls/current')).json()).toBeNull();
    await la.close();
    await lb.close();
  });

  it("refuses a caller's signals once his tier lost video calls (HTTP and socket) and ends the call for both; a free callee signals", async () => {
    const { app, db, clock } = t();
    const { a, b, conversationId } = await pair(app, db);
    const [la, lb] = [await openLive(app, a.token), await openLive(app, b.token)];
    // The callee may be on any tier: a free callee answers, signals and asks for a restart.
    await setTier(db, b.user.uid, 'free');
    const connect = async () => {
      const call = (await start(app, a, b)).json() as Call;
      expect((await api(app, b, 'POST', `/calls/${call.id}/accept`, { device: DEV_B })).statusCode).toBe(200);
      for (const l of [la, lb]) while ((await l.next('call')).call.state !== 'active');
      return call;
    };
    const ice = { kind: 'ice', candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host' } };
    const endedFor = async (callId: string) => {
      for (const l of [la, lb]) {
        expect((await l.next('call')).call).toMatchObject({ id: callId, state: 'ended', outcome: 'finished' });
        expect((await l.next('message')).message).toMatchObject({ type: 'call', content: 'Video call, 20 s' });
      }
    };

    const first = await connect();
    expect((await api(app, b, 'POST', `/calls/${first.id}/signal`, { device: DEV_B, signal: ice })).statusCode).toBe(204);
    expect((await la.next('call-signal')).signal).toEqual(ice);
    const restart = { kind: 'restart' };
    expect((await api(app, b, 'POST', `/calls/${first.id}/signal`, { device: DEV_B, signal: restart })).statusCode).toBe(204);
    expect(await la.next('call-signal')).toEqual({ type: 'call-signal', callId: first.id, device: DEV_A, signal: restart });
    expect((await api(app, a, 'POST', `/calls/${first.id}/signal`, { device: DEV_A, signal: ice })).statusCode).toBe(204);
    await lb.next('call-signal');

    // His subscription lapses mid-call: his next signal is refused with the upgrade text, and the call ends.
    clock.advance(20_000);
    await setTier(db, a.user.uid, 'free');
    const refused = await api(app, a, 'POST', `/calls/${first.id}/signal`, { device: DEV_A, signal: ice });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'limit_reached', message: VIDEO_CALL_UPSELL });
    await endedFor(first.id);
    // Nothing more goes through, from either side.
    const after = await api(app, a, 'POST', `/calls/${first.id}/signal`, { device: DEV_A, signal: ice });
    expect(after.json()).toMatchObject({ message: CallMessages.notActive });
    expect((await api(app, b, 'POST', `/calls/${first.id}/signal`, { device: DEV_B, signal: ice })).statusCode).toBe(409);
    expect((await start(app, a, b)).json()).toMatchObject({ message: VIDEO_CALL_UPSELL });

    // The same on the live socket: the refusal comes back on it and the call ends for both.
    await setTier(db, a.user.uid, 'premium');
    const second = await connect();
    clock.advance(20_000);
    await setTier(db, a.user.uid, 'free');
    la.ws.send(JSON.stringify({ type: 'call-signal', callId: second.id, device: DEV_A, signal: ice }));
    await endedFor(second.id);
    expect(await la.next('call-error')).toEqual({
      type: 'call-error',
      callId: second.id,
      status: 403,
      message: VIDEO_CALL_UPSELL,
    });
    expect(await lines(app, b, conversationId)).toEqual(['Video call, 20 s', 'Video call, 20 s']);
    await la.close();
    await lb.close();
  });

  it('answers busy when the callee is on a call, refuses a second call of the caller, and declines', async () => {
    const { app, db } = t();
    const { a, b, conversationId } = await pair(app, db);
    const { a: c } = await pair(app, db);
    expect((await select(app, c, b)).statusCode).toBe(200);
    expect((await select(app, b, c)).statusCode).toBe(200);

    const first = (await start(app, a, b)).json() as Call;
    const busy = await start(app, c, b);
    expect(busy.statusCode).toBe(201);
    expect(busy.json()).toMatchObject({ state: 'ended', outcome: 'busy' });
    const again = await start(app, a, b);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: CallMessages.youAreBusy });

    const declined = await api(app, b, 'POST', `/calls/${first.id}/decline`);
    expect(declined.json()).toMatchObject({ state: 'ended', outcome: 'declined' });
    expect((await api(app, b, 'POST', `/calls/${first.id}/accept`, { device: DEV_B })).statusCode).toBe(409);
    expect(await lines(app, b, conversationId)).toEqual(['Declined video call']);
  });

  it('stops ringing after 45 s: a missed call, unread for the callee; accepting then is refused', async () => {
    const { app, db, clock } = t();
    const { a, b, conversationId } = await pair(app, db);
    const lb = await openLive(app, b.token);
    const call = (await start(app, a, b, 'voice')).json() as Call;
    await lb.next('call');
    clock.advance(44_000);
    expect((await api(app, b, 'GET', `/calls/${call.id}`)).json()).toMatchObject({ state: 'ringing' });
    clock.advance(2_000);
    // The periodic sweep ends it without anyone asking.
    expect((await lb.next('call', 3000)).call).toMatchObject({ id: call.id, state: 'ended', outcome: 'missed' });
    expect((await lb.next('message')).message).toMatchObject({ content: 'Missed voice call' });
    expect((await api(app, b, 'POST', `/calls/${call.id}/accept`, { device: DEV_B })).statusCode).toBe(409);
    const convs = (await api(app, b, 'GET', '/conversations')).json() as Array<{
      id: string;
      unreadCount: number;
      lastMessage: { content: string };
    }>;
    expect(convs.find((c) => c.id === conversationId)).toMatchObject({
      unreadCount: 1,
      lastMessage: { content: 'Missed voice call' },
    });
    await lb.close();
  });

  it('ends as dropped a call whose participant has had no open tab for a minute', async () => {
    const { app, db, clock } = t();
    const { a, b, conversationId } = await pair(app, db);
    const [la, lb] = [await openLive(app, a.token), await openLive(app, b.token)];
    const call = (await start(app, a, b)).json() as Call;
    await api(app, b, 'POST', `/calls/${call.id}/accept`, { device: DEV_B });
    await lb.close();
    const gone = async () =>
      (await db.selectFrom('live_connections').select('id').where('user_id', '=', b.user.uid).execute()).length === 0;
    for (let i = 0; i < 100 && !(await gone()); i++) await new Promise((r) => setTimeout(r, 20));
    clock.advance(30_000);
    await new Promise((r) => setTimeout(r, 300));
    expect((await api(app, a, 'GET', `/calls/${call.id}`)).json()).toMatchObject({ state: 'active' });
    clock.advance(31_000);
    let ended = await la.next('call');
    while (ended.call.state !== 'ended') ended = await la.next('call');
    expect(ended.call).toMatchObject({ id: call.id, outcome: 'dropped' });
    expect(await lines(app, a, conversationId)).toEqual(['Video call, 1 min']);
    await la.close();
  });

  it('allows 30 call attempts an hour', async () => {
    const { app, db, clock } = t();
    const { a, b } = await pair(app, db);
    for (let i = 0; i < 30; i++) {
      const c = await start(app, a, b);
      expect(c.statusCode, c.body).toBe(201);
      await api(app, a, 'POST', `/calls/${c.json().id}/hangup`);
    }
    const over = await start(app, a, b);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(CallMessages.tooMany);
    // An hour later (the rows' times moved back: a session does not outlive an hour of test clock).
    await db
      .updateTable('calls')
      .set({ created_at: new Date(clock.now().getTime() - 60 * 60_000 - 1000) })
      .where('caller_id', '=', a.user.uid)
      .execute();
    expect((await start(app, a, b)).statusCode).toBe(201);
  });

  it('ends an ongoing call when either blocks the other, and refuses its signals', async () => {
    const { app, db } = t();
    const { a, b } = await pair(app, db);
    const la = await openLive(app, a.token);
    const call = (await start(app, a, b)).json() as Call;
    await api(app, b, 'POST', `/calls/${call.id}/accept`, { device: DEV_B });
    expect((await api(app, b, 'POST', `/users/${a.user.uid}/block`)).statusCode).toBe(204);
    let ended = await la.next('call');
    while (ended.call.state !== 'ended') ended = await la.next('call');
    expect(ended.call).toMatchObject({ id: call.id, outcome: 'blocked' });
    const sig = await api(app, a, 'POST', `/calls/${call.id}/signal`, { device: DEV_A, signal: { kind: 'offer', sdp: 'v=0' } });
    expect(sig.statusCode).toBe(409);
    expect((await start(app, a, b)).statusCode).toBe(404);
    await la.close();
  });
});

describe('ICE servers by configuration', () => {
  const t = useTestApp('pglite', {
    env: {
      ICE_SERVERS: 'stun:stun.example.org:3478, turn:turn.example.org:3478?transport=udp',
      TURN_SECRET: 'a-long-turn-secret-123',
      CALL_RELAY_ONLY: 'true',
    },
  });
  const plain = useTestApp('pglite');

  it('mints TURN REST credentials (expiry:uid, base64 HMAC-SHA1) and gives host candidates only without configuration', async () => {
    const u = await signUpMember(t().app, t().db);
    const res = await api(t().app, u, 'GET', '/calls/ice-servers');
    const body = res.json();
    expect(body.ttlSeconds).toBe(3600);
    expect(body.relayOnly).toBe(true);
    expect(body.iceServers[0]).toEqual({ urls: ['stun:stun.example.org:3478'] });
    const turn = body.iceServers[1];
    expect(turn.urls).toEqual(['turn:turn.example.org:3478?transport=udp']);
    expect(turn.username).toBe(`${Date.parse('2026-06-01T12:00:00Z') / 1000 + 3600}:${u.user.uid}`);
    expect(turn.credential).toBe(createHmac('sha1', 'a-long-turn-secret-123').update(turn.username).digest('base64'));

    const v = await signUpMember(plain().app, plain().db);
    expect((await api(plain().app, v, 'GET', '/calls/ice-servers')).json()).toEqual({
      iceServers: [],
      ttlSeconds: null,
      relayOnly: false,
    });
    expect(() => testConfig({ ICE_SERVERS: 'turn:turn.example.org' })).toThrow(/TURN_SECRET/);
    expect(() => testConfig({ CALL_RELAY_ONLY: 'true' })).toThrow(/CALL_RELAY_ONLY/);
    expect(() => testConfig({ ICE_SERVERS: 'http://turn.example.org' })).toThrow(/ICE_SERVERS/);
    expect((await plain().app.inject({ method: 'GET', url: '/api/v1/calls/ice-servers' })).statusCode).toBe(401);
  });
});

// Two server instances on one PostgreSQL schema: the callee's tab is on the other instance.
describe.runIf(DB_KINDS.includes('postgres'))('calls across two instances on PostgreSQL', () => {
  const config = testConfig();
  let close: Array<() => Promise<unknown>> = [];
  let one: FastifyInstance;
  let oneDb: Db;
  let two: FastifyInstance;

  beforeAll(async () => {
    const d1 = await openTestDatabase('postgres');
    const d2 = await openDatabase({ databaseUrl: d1.url, schema: d1.schema });
    one = await createApp({ config, database: d1, logger: false });
    oneDb = d1.db;
    two = await createApp({ config, database: d2, logger: false });
    close = [() => two.close(), () => one.close()];
  });
  afterAll(async () => {
    for (const c of close) await c();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('rings, answers and relays every signal between a tab on each instance, large offers by reference', async () => {
    const { a, b } = await pair(one, oneDb);
    const la = await openLive(one, a.token);
    const lb = await openLive(two, b.token);
    const call = (await start(one, a, b)).json() as Call;
    expect((await lb.next('call')).call).toMatchObject({ id: call.id, state: 'ringing' });

    expect((await api(two, b, 'POST', `/calls/${call.id}/accept`, { device: DEV_B })).statusCode).toBe(200);
    await la.next('call');
    expect((await la.next('call')).call).toMatchObject({ state: 'active' });

    // A real offer with video and audio is a few KB; one past NOTIFY's room comes by reference.
    const big = { kind: 'offer', sdp: `v=0\r\n${'a=candidate:x\r\n'.repeat(800)}` };
    expect((await api(one, a, 'POST', `/calls/${call.id}/signal`, { device: DEV_A, signal: big })).statusCode).toBe(204);
    expect(await lb.next('call-signal')).toEqual({
      type: 'call-signal',
      callId: call.id,
      device: DEV_B,
      signal: { kind: 'offer', sdp: null },
    });
    expect((await api(two, b, 'GET', `/calls/${call.id}/description?kind=offer`)).json()).toEqual({ sdp: big.sdp });

    const answer = { kind: 'answer', sdp: 'v=0\r\nanswer\r\n' };
    expect((await api(two, b, 'POST', `/calls/${call.id}/signal`, { device: DEV_B, signal: answer })).statusCode).toBe(204);
    expect((await la.next('call-signal')).signal).toEqual(answer);

    expect((await api(two, b, 'POST', `/calls/${call.id}/hangup`)).statusCode).toBe(200);
    expect((await la.next('message')).message).toMatchObject({ type: 'call', content: 'Video call, 0 s' });
    await la.close();
    await lb.close();
  });
});
