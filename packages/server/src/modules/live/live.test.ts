import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { LIVE_CLOSE_UNAUTHORIZED } from '@fmk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUp, signUpMember } from '../../../test/factories.ts';
import { DB_KINDS, openTestDatabase, testConfig, useTestApp } from '../../../test/harness.ts';
import { openLive } from '../../../test/live.ts';
import { createApp } from '../../app.ts';
import { openDatabase } from '../../db/index.ts';
import { envelopes, MAX_NOTIFY_BYTES } from '../../platform/bus.ts';

const until = async (check: () => Promise<boolean>, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('bus envelopes', () => {
  it('keeps every NOTIFY payload under the limit: large events become refetch, many recipients are split', () => {
    const small = envelopes('src', ['u1', 'u2'], { type: 'like', count: 3 });
    expect(small.map((p) => JSON.parse(p))).toEqual([{ src: 'src', to: ['u1', 'u2'], event: { type: 'like', count: 3 } }]);

    const big = envelopes('src', ['u1'], { type: 'message', text: 'x'.repeat(9000) });
    expect(JSON.parse(big[0]!).event).toEqual({ type: 'refetch', of: 'message' });

    const many = Array.from({ length: 250 }, () => randomUUID());
    const split = envelopes('src', many, { type: 'like', count: 1 });
    expect(split).toHaveLength(3);
    expect(split.flatMap((p) => JSON.parse(p).to)).toEqual(many);
    for (const p of split) expect(Buffer.byteLength(p)).toBeLessThan(MAX_NOTIFY_BYTES);
  });
});

describe.each(DB_KINDS)('live channel on %s', (kind) => {
  const t = useTestApp(kind);

  it('closes with 4401 on a bad token or when the first message is not auth', async () => {
    const bad = await openLive(t().app);
    bad.ws.send(JSON.stringify({ type: 'auth', token: 'nope' }));
    expect(await bad.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);

    const rude = await openLive(t().app);
    rude.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await rude.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);

    const garbage = await openLive(t().app);
    garbage.ws.send('{not json');
    expect(await garbage.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
  });

  it('closes a revoked session with 4401', async () => {
    const u = await signUp(t().app);
    await t().app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: u.headers });
    const c = await openLive(t().app);
    c.ws.send(JSON.stringify({ type: 'auth', token: u.token }));
    expect(await c.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
  });

  it("closes a signed-out session's open sockets with 4401 and leaves his other sessions' open", async () => {
    const u = await signUp(t().app);
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: u.user.email, password: PASSWORD },
    });
    const other = login.json().token as string;
    const here = await openLive(t().app, u.token);
    const there = await openLive(t().app, other);
    const out = await t().app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: u.headers });
    expect(out.statusCode).toBe(204);
    expect(await here.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    // The other session still works, and never saw the internal event.
    there.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await there.next('pong')).toEqual({ type: 'pong' });
    expect(there.events.map((e) => e.type)).not.toContain('session-ended');
    await there.close();
  });

  it('authenticates with the first message, answers ping with pong, and delivers bus events to that user only', async () => {
    const [a, b] = [await signUpMember(t().app, t().db), await signUpMember(t().app, t().db)];
    const ca = await openLive(t().app, a.token);
    const cb = await openLive(t().app, b.token);
    ca.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await ca.next('pong')).toEqual({ type: 'pong' });

    // A selection toward b publishes 'like' to b alone.
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/v1/selections',
      headers: a.headers,
      payload: { targetId: b.user.uid, action: 'fuck', clientId: randomUUID() },
    });
    expect(res.statusCode).toBe(200);
    expect(await cb.next('like')).toEqual({ type: 'like', count: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(ca.events.filter((e) => e.type === 'like')).toEqual([]);
    await ca.close();
    await cb.close();
  });

  it('sets presence: online with the first socket, offline with lastSeen after the last', async () => {
    const u = await signUp(t().app);
    const presence = () =>
      t().db.selectFrom('users').select(['is_online', 'last_seen']).where('id', '=', u.user.uid).executeTakeFirstOrThrow();
    expect((await presence()).is_online).toBe(false);
    const tab1 = await openLive(t().app, u.token);
    const tab2 = await openLive(t().app, u.token);
    await until(async () => (await presence()).is_online);
    t().clock.advance(60_000);
    await tab1.close();
    await new Promise((r) => setTimeout(r, 100));
    expect((await presence()).is_online).toBe(true);
    await tab2.close();
    await until(async () => !(await presence()).is_online);
    expect((await presence()).last_seen?.toISOString()).toBe(t().clock.now().toISOString());
  });
});

describe('live channel auth timeout', () => {
  const t = useTestApp('pglite');
  it('closes with 4401 when no auth message comes within 5 s', async () => {
    const c = await openLive(t().app);
    const started = Date.now();
    expect(await c.closed).toBe(LIVE_CLOSE_UNAUTHORIZED);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
  }, 10_000);
});

// Two server instances on one PostgreSQL schema: an event published on one reaches a socket
// held by the other, through LISTEN/NOTIFY.
describe.runIf(DB_KINDS.includes('postgres'))('live channel across two instances on PostgreSQL', () => {
  const config = testConfig();
  let close: Array<() => Promise<unknown>> = [];
  let one: Awaited<ReturnType<typeof createApp>>;
  let oneDb: Awaited<ReturnType<typeof openTestDatabase>>['db'];
  let two: Awaited<ReturnType<typeof createApp>>;

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

  it('delivers a super selection made through instance one to a socket on instance two', async () => {
    const [a, b] = [await signUpMember(one, oneDb), await signUpMember(one, oneDb)];
    const onTwo = await openLive(two, b.token);
    const res = await one.inject({
      method: 'POST',
      url: '/api/v1/selections',
      headers: a.headers,
      payload: { targetId: b.user.uid, action: 'marry', super: true, clientId: randomUUID() },
    });
    expect(res.statusCode).toBe(200);
    expect(await onTwo.next('super')).toEqual({
      type: 'super',
      kind: 'super-marry',
      from: { uid: a.user.uid, displayName: null, photoURL: null, verified: false },
    });
    expect(await onTwo.next('like')).toEqual({ type: 'like', count: 1 });
    await onTwo.close();
  });
});
