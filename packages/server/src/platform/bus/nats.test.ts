import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/harness.ts';
import { CuttableRelay, NATS_URL, natsPrefix, requireNats, until } from '../../../test/nats.ts';
import type { DB } from '../../db/index.ts';
import { type LiveEvent, LocalBus } from '../bus.ts';
import { createBus } from './create.ts';
import { NatsBus } from './nats.ts';

/** Events a handler got, in order. */
const inbox = () => {
  const got: LiveEvent[] = [];
  return { got, handler: (e: LiveEvent) => got.push(e) };
};

describe('the NATS bus', () => {
  const prefix = natsPrefix();
  const open: NatsBus[] = [];
  const bus = async (servers = [NATS_URL]) => {
    const b = await NatsBus.create({ servers, prefix, reconnectTimeWaitMs: 50 });
    open.push(b);
    return b;
  };
  beforeAll(requireNats);
  afterAll(async () => {
    for (const b of open) await b.close();
  });

  it('gives an instance only the events of the users it holds, one subscription per user', async () => {
    const [one, two, three] = [await bus(), await bus(), await bus()];
    const [u1, u2, u3, sentinel] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const a = inbox();
    const b = inbox();
    const s = inbox();
    const offA = one.subscribe(u1, a.handler);
    two.subscribe(u2, b.handler);
    one.subscribe(sentinel, s.handler);
    await Promise.all([one.flush(), two.flush()]);

    await three.publish([u1, u2, u3], { type: 'typing', n: 1 });
    await until(() => a.got.length === 1 && b.got.length === 1, 'u1 on one and u2 on two');
    expect(a.got).toEqual([{ type: 'typing', n: 1 }]);
    expect(one.received).toBe(1);
    expect(two.received).toBe(1);
    // Nobody holds u3: the server dropped it, and the publisher holds no one.
    expect(three.received).toBe(0);
    expect(one.users().sort()).toEqual([u1, sentinel].sort());
    expect(three.users()).toEqual([]);

    // A second tab of u1 on one: still one subscription; the first closing keeps it.
    const a2 = inbox();
    const offA2 = one.subscribe(u1, a2.handler);
    expect(one.users().filter((u) => u === u1)).toHaveLength(1);
    offA();
    offA(); // twice is harmless
    await three.publish([u1], { type: 'typing', n: 2 });
    await until(() => a2.got.length === 1, "u1's second tab");
    expect(a.got).toHaveLength(1);
    expect(one.received).toBe(2);

    // His last tab closes: one unsubscribes, and the server stops sending u1's events there.
    offA2();
    expect(one.users()).toEqual([sentinel]);
    await one.flush();
    await three.publish([u1], { type: 'typing', n: 3 });
    await three.publish([sentinel], { type: 'typing', n: 4 });
    // One publisher's messages arrive in order: once the sentinel is in, u1's would have been.
    await until(() => s.got.length === 1, 'the sentinel');
    expect(one.received).toBe(3);
    expect(a2.got).toHaveLength(1);
  });

  it("delivers to the publisher's own subscribers once, at once, without the server's echo", async () => {
    const [one, two] = [await bus(), await bus()];
    const u = randomUUID();
    const mine = inbox();
    one.subscribe(u, mine.handler);
    await one.flush();
    await one.publish([u], { type: 'message', n: 1 });
    expect(mine.got).toEqual([{ type: 'message', n: 1 }]);
    await two.publish([u], { type: 'message', n: 2 });
    await until(() => mine.got.length === 2, 'the second message');
    expect(mine.got.map((e) => e.n)).toEqual([1, 2]);
    expect(one.received).toBe(1);
  });

  it('keeps its subscriptions through a reconnect and sends what was published while away', async () => {
    const relay = await new CuttableRelay().start();
    try {
      const [cut, other] = [await bus([relay.url]), await bus()];
      const [u1, u2, far] = [randomUUID(), randomUUID(), randomUUID()];
      const [a, b, f] = [inbox(), inbox(), inbox()];
      cut.subscribe(u1, a.handler);
      other.subscribe(far, f.handler);
      await Promise.all([cut.flush(), other.flush()]);
      expect(relay.connections).toBe(1);

      relay.cut({ refuse: true });
      await until(() => !cut.connected, 'the bus to notice');
      // While it is away: a new user connects to it, and it publishes to a user held elsewhere
      // (the client buffers it; what was written to the dead socket before it noticed is lost).
      cut.subscribe(u2, b.handler);
      await cut.publish([far], { type: 'match', n: 1 });
      relay.resume();
      await until(() => cut.connected, 'the reconnect');
      await cut.flush();
      await until(() => f.got.length === 1, 'the event published while away');

      await other.publish([u1, u2], { type: 'match', n: 2 });
      await until(() => a.got.length === 1 && b.got.length === 1, 'both subscriptions after the reconnect');
      expect(a.got).toEqual([{ type: 'match', n: 2 }]);
      expect(b.got).toEqual([{ type: 'match', n: 2 }]);
    } finally {
      await relay.stop();
    }
  });

  it('drains on close: what was published just before reaches the other instances', async () => {
    const [leaving, staying] = [await NatsBus.create({ servers: [NATS_URL], prefix }), await bus()];
    const u = randomUUID();
    const got = inbox();
    staying.subscribe(u, got.handler);
    await staying.flush();
    for (let i = 0; i < 500; i++) await leaving.publish([u], { type: 'message', i });
    await leaving.close();
    await until(() => got.got.length === 500, 'all 500 events');
    expect(got.got.map((e) => e.i)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    // Closed, it neither throws nor subscribes.
    await leaving.publish([u], { type: 'message', i: 500 });
    expect(() => leaving.subscribe(u, () => {})()).not.toThrow();
  });

  it('sends an event past the server payload limit as a refetch, and ignores ids that are not one subject token', async () => {
    const [one, two] = [await bus(), await bus()];
    const u = randomUUID();
    const got = inbox();
    two.subscribe(u, got.handler);
    await two.flush();
    await one.publish([u, 'a.b', '>'], { type: 'call-signal', blob: 'x'.repeat(1024 * 1024 + 10) });
    await until(() => got.got.length === 1, 'the refetch');
    expect(got.got).toEqual([{ type: 'refetch', of: 'call-signal' }]);
  });

  it('refuses to start, naming the server without its password, when NATS does not answer', async () => {
    await expect(NatsBus.create({ servers: ['nats://fmk:secret@127.0.0.1:1'], prefix })).rejects.toThrow(
      /^Cannot reach NATS at nats:\/\/127\.0\.0\.1:1 \(BUS_URL\)/,
    );
  });
});

describe('choosing the bus', () => {
  beforeAll(requireNats);

  it('takes NATS when BUS_URL is set, whatever the database; in-process on PGlite otherwise', async () => {
    // The bus never queries an embedded database: a pool that is never connected stands in for it.
    const pool = new pg.Pool();
    const database = { kind: 'pglite' as const, db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }) };
    const nats = await createBus(testConfig({ BUS_URL: NATS_URL, BUS_SUBJECT_PREFIX: natsPrefix() }), database);
    expect(nats).toBeInstanceOf(NatsBus);
    await nats.close();
    expect(await createBus(testConfig(), database)).toBeInstanceOf(LocalBus);
    await database.db.destroy();
  });

  it('reads BUS_URL and BUS_SUBJECT_PREFIX, refusing what NATS could not use', () => {
    expect(testConfig().bus).toBeNull();
    expect(testConfig({ BUS_URL: 'nats://a:4222, nats://b:4222' }).bus).toEqual({
      natsServers: ['nats://a:4222', 'nats://b:4222'],
      subjectPrefix: 'fmk',
    });
    expect(() => testConfig({ BUS_URL: 'http://a:4222' })).toThrow(/BUS_URL must be nats:\/\/host:port/);
    expect(() => testConfig({ BUS_URL: 'nats://a:4222', BUS_SUBJECT_PREFIX: 'fmk.>' })).toThrow(/BUS_SUBJECT_PREFIX/);
  });
});
