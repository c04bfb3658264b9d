import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, openTestDatabase } from '../../test/harness.ts';
import { until } from '../../test/nats.ts';
import { type Database, openDatabase } from '../db/index.ts';
import { type LiveEvent, PgBus } from './bus.ts';

/**
 * LISTEN/NOTIFY between instances that know of each other: an instance alone on its channel sends
 * no NOTIFY (its events reach its own sockets only), and one that another instance joins NOTIFYs
 * from then on, until that instance says goodbye.
 */
describe.runIf(DB_KINDS.includes('postgres'))('the PostgreSQL bus between instances', () => {
  const databases: Database[] = [];
  const buses: PgBus[] = [];

  async function instance(opts: { peerGraceMs?: number } = {}): Promise<PgBus> {
    const first = databases[0];
    const database = first
      ? await openDatabase({ databaseUrl: first.url!, schema: first.schema })
      : await openTestDatabase('postgres');
    databases.push(database);
    const bus = await PgBus.create({ url: database.url!, schema: database.schema, db: database.db, peerGraceMs: 0, ...opts });
    buses.push(bus);
    return bus;
  }

  beforeAll(async () => {
    await instance();
  }, 120_000);

  afterAll(async () => {
    for (const b of buses) await b.close();
    for (const d of databases.reverse()) await d.close();
  });

  it('alone, delivers to its own subscribers and NOTIFYs nobody; joined, reaches the other and stops when it leaves', async () => {
    const one = buses[0]!;
    const here: LiveEvent[] = [];
    one.subscribe('u1', (e) => here.push(e));
    await one.publish(['u1'], { type: 'typing', n: 1 });
    expect(here).toEqual([{ type: 'typing', n: 1 }]);
    expect(one.notified).toBe(0);
    expect(one.state().peers).toBe(0);

    const two = await instance();
    const there: LiveEvent[] = [];
    two.subscribe('u2', (e) => there.push(e));
    // Each learns of the other: the newcomer's hello, the old one's answer.
    await until(() => one.state().peers === 1 && two.state().peers === 1, 'each to know the other');
    await one.publish(['u2'], { type: 'typing', n: 2 });
    await until(() => there.length === 1, 'the event on the second instance');
    expect(there).toEqual([{ type: 'typing', n: 2 }]);
    expect(one.notified).toBe(1);
    await two.publish(['u1'], { type: 'typing', n: 3 });
    await until(() => here.length === 2, 'the event on the first instance');
    expect(here[1]).toEqual({ type: 'typing', n: 3 });

    await two.close();
    await until(() => one.state().peers === 0, 'the bye');
    await one.publish(['u2'], { type: 'typing', n: 4 });
    expect(one.notified).toBe(1);
  });

  it('while its grace lasts after connecting, NOTIFYs though it knows no peer yet', async () => {
    const three = await instance({ peerGraceMs: 60_000 });
    // The first instance answers its hello; until then, and for the grace, it NOTIFYs anyway.
    await three.publish(['nobody'], { type: 'typing' });
    expect(three.notified).toBe(1);
  });
});
