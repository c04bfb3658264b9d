import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { LIVE_CLOSE_UNAUTHORIZED } from '@fmk/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, type signUp, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, openTestDatabase, testConfig } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { NATS_URL, natsPrefix, requireNats, until } from '../../../test/nats.ts';
import { createApp } from '../../app.ts';
import { type Database, type Db, openDatabase } from '../../db/index.ts';
import { createBus } from '../../platform/bus/create.ts';
import { NatsBus } from '../../platform/bus/nats.ts';
import { GRID_CELLS_TOPIC } from '../../platform/grid-cells.ts';

type User = Awaited<ReturnType<typeof signUp>>;

const api = (app: FastifyInstance, u: User, method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({ method, url: `/api/v1${url}`, headers: u.headers, ...(payload ? { payload } : {}) });
const select = (app: FastifyInstance, from: User, to: User) =>
  api(app, from, 'POST', '/selections', { targetId: to.user.uid, action: 'fuck', clientId: randomUUID() });

/**
 * Three instances of the app on one database and one NATS server (BUS_URL), as behind a load
 * balancer: every live path crosses instances, and an instance hears only its own users. On
 * PostgreSQL each instance has its own pool on the suite's schema; on PGlite (one process by
 * nature) the three share the one database.
 */
describe.each(DB_KINDS)('three instances on NATS, %s', (kind) => {
  const config = testConfig({ BUS_URL: NATS_URL, BUS_SUBJECT_PREFIX: natsPrefix(), CALL_SWEEP_MS: '60000' });
  const apps: FastifyInstance[] = [];
  const buses: NatsBus[] = [];
  let db: Db;

  beforeAll(async () => {
    await requireNats();
    const first = await openTestDatabase(kind);
    db = first.db;
    const shared = (d: Database): Database => ({ ...d, close: async () => {} });
    const others =
      kind === 'postgres'
        ? [
            await openDatabase({ databaseUrl: first.url!, schema: first.schema! }),
            await openDatabase({ databaseUrl: first.url!, schema: first.schema! }),
          ]
        : [shared(first), shared(first)];
    for (const d of [first, ...others]) {
      const bus = await createBus(config, d);
      if (!(bus instanceof NatsBus)) throw new Error('BUS_URL did not give the NATS bus');
      buses.push(bus);
      apps.push(await createApp({ config, database: d, bus, logger: false }));
    }
    // A migrated PGlite takes long to make on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    // The first instance's database goes last: on PostgreSQL its close drops the schema.
    for (const app of apps.reverse()) await app.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  /** Two members who chose each other, through instance one: their conversation. */
  const matched = async () => {
    const [a, b] = [await signUpMember(apps[0]!, db), await signUpMember(apps[0]!, db)];
    expect((await select(apps[0]!, a, b)).statusCode).toBe(200);
    const res = await select(apps[0]!, b, a);
    expect(res.statusCode).toBe(200);
    return { a, b, conversationId: res.json().match.conversationId as string };
  };

  it('matches made on one reach both members on the two others', async () => {
    const [a, b] = [await signUpMember(apps[0]!, db), await signUpMember(apps[0]!, db)];
    const la = await openLive(apps[1]!, a.token);
    const lb = await openLive(apps[2]!, b.token);
    expect((await select(apps[0]!, a, b)).statusCode).toBe(200);
    expect(await lb.next('like')).toEqual({ type: 'like', count: 1 });
    expect((await select(apps[0]!, b, a)).statusCode).toBe(200);
    expect((await la.next('match')).match.other.uid).toBe(b.user.uid);
    expect((await lb.next('match')).match.other.uid).toBe(a.user.uid);
    await la.close();
    await lb.close();
  });

  it("messages and typing reach every tab on every instance, and the sender hears 'delivered'", async () => {
    const { a, b, conversationId } = await matched();
    const aOnTwo = await openLive(apps[1]!, a.token);
    const bOnTwo = await openLive(apps[1]!, b.token);
    const bOnThree = await openLive(apps[2]!, b.token);
    const sent = await api(apps[0]!, a, 'POST', `/conversations/${conversationId}/messages`, {
      clientId: randomUUID(),
      content: 'across three',
    });
    expect(sent.statusCode).toBe(201);
    expect((await bOnTwo.next('message')).message.id).toBe(sent.json().id);
    expect((await bOnThree.next('message')).message.id).toBe(sent.json().id);
    expect((await aOnTwo.next('message')).message.id).toBe(sent.json().id);
    expect((await aOnTwo.next('delivered')).upTo).toBe(sent.json().seq);

    const typing = await api(apps[2]!, b, 'POST', `/conversations/${conversationId}/typing`, { typing: true });
    expect(typing.statusCode).toBe(204);
    expect(await aOnTwo.next('typing')).toEqual({ type: 'typing', conversationId, userId: b.user.uid, typing: true });
    for (const c of [aOnTwo, bOnTwo, bOnThree]) await c.close();
  });

  it("signing out on one closes that session's sockets on the others, and only that session's", async () => {
    const a = await signUpMember(apps[0]!, db);
    const login = await apps[0]!.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: a.user.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const second = login.json().token as string;
    const firstOnTwo = await openLive(apps[1]!, a.token);
    const firstOnThree = await openLive(apps[2]!, a.token);
    const secondOnTwo = await openLive(apps[1]!, second);
    expect((await api(apps[0]!, a, 'POST', '/auth/logout')).statusCode).toBe(204);
    expect(await firstOnTwo.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    expect(await firstOnThree.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    secondOnTwo.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await secondOnTwo.next('pong')).toEqual({ type: 'pong' });
    await secondOnTwo.close();
  });

  it("relays a call's ring, answer and signals between tabs on two instances", async () => {
    const { a, b } = await matched();
    const la = await openLive(apps[1]!, a.token);
    const lb = await openLive(apps[2]!, b.token);
    const started = await api(apps[0]!, a, 'POST', '/calls', { userId: b.user.uid, kind: 'video', device: 'tab-a-000001' });
    expect(started.statusCode).toBe(201);
    const callId = started.json().id as string;
    expect((await lb.next('call')).call).toMatchObject({ id: callId, state: 'ringing' });
    expect((await api(apps[2]!, b, 'POST', `/calls/${callId}/accept`, { device: 'tab-b-000001' })).statusCode).toBe(200);
    let c = await la.next('call');
    while (c.call.state !== 'active') c = await la.next('call');
    // The offer goes on a's socket to instance two; b hears it on instance three.
    const offer = { kind: 'offer', sdp: 'v=0\r\noffer\r\n' };
    la.ws.send(JSON.stringify({ type: 'call-signal', callId, device: 'tab-a-000001', signal: offer }));
    expect(await lb.next('call-signal')).toEqual({ type: 'call-signal', callId, device: 'tab-b-000001', signal: offer });
    const answer = { kind: 'answer', sdp: 'v=0\r\nanswer\r\n' };
    expect(
      (await api(apps[0]!, b, 'POST', `/calls/${callId}/signal`, { device: 'tab-b-000001', signal: answer })).statusCode,
    ).toBe(204);
    expect((await la.next('call-signal')).signal).toEqual(answer);
    expect((await api(apps[0]!, a, 'POST', `/calls/${callId}/hangup`)).statusCode).toBe(200);
    await la.close();
    await lb.close();
  });

  it('gives an instance none of the events of users not connected to it', async () => {
    // Every instance also listens on the grid's cell topic (its candidate lists): that is no user.
    const usersOf = (b: NatsBus) => b.users().filter((u) => u !== GRID_CELLS_TOPIC);
    await until(() => buses.every((b) => usersOf(b).length === 0), 'the earlier sockets to unsubscribe');
    const [x, y] = [await signUpMember(apps[0]!, db), await signUpMember(apps[0]!, db)];
    const before = buses.map((b) => b.received);
    const lx = await openLive(apps[0]!, x.token);
    const ly = await openLive(apps[1]!, y.token);
    expect(buses.map(usersOf)).toEqual([[x.user.uid], [y.user.uid], []]);
    // Published on instance three, which holds neither.
    expect((await select(apps[2]!, x, y)).statusCode).toBe(200);
    expect((await select(apps[2]!, y, x)).statusCode).toBe(200);
    await lx.next('match');
    await ly.next('match');
    expect(buses[2]!.received - before[2]!).toBe(0);
    expect(buses[0]!.received - before[0]!).toBeGreaterThan(0);
    expect(buses[1]!.received - before[1]!).toBeGreaterThan(0);
    // His last socket gone, the instance stops listening for him.
    await lx.close();
    await ly.close();
    await until(() => buses.every((b) => usersOf(b).length === 0), 'the unsubscribes');
  });
});
