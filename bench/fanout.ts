import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { BENCH_DB, dbUrl, ensureDatabase } from './game.ts';

/**
 * Fan-out across server instances: three processes, each holding a third of the users'
 * subscriptions on the real bus, publish message events to two users each (drawn from all
 * instances), `concurrency` in flight per instance; the figure is events delivered to
 * subscribers per second, summed over the three, from the first publish to the last delivery.
 * Both buses in the same run: LISTEN/NOTIFY through PostgreSQL (the floor: what NATS replaces)
 * and NATS with a subject per user. Also how many messages each instance took from its
 * transport: with NOTIFY every instance reads every envelope, with NATS only its users' events.
 * The database and NATS server are the machine's (BENCH_DATABASE_URL, BENCH_NATS_URL).
 */
export interface FanoutFigures {
  bus: 'nats' | 'pg';
  eventsPublished: number;
  delivered: number;
  expected: number;
  seconds: number;
  /** Events delivered to subscribers per second, all instances. */
  deliveredPerSecond: number;
  /** Messages each instance took from its transport (NOTIFY envelopes, NATS messages). */
  receivedPerInstance: number[];
  latencyMs: { p50: number; p99: number };
}

export interface FanoutBenchResult {
  name: string;
  instances: number;
  users: number;
  eventsPerInstance: number;
  concurrency: number;
  nats: FanoutFigures;
  pg: FanoutFigures;
  ratio: number;
  pass: boolean;
}

const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const r2 = (x: number) => Math.round(x * 100) / 100;

type Reply = Record<string, unknown>;

function nextReply(child: ChildProcess, key: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onMsg = (m: Reply) => {
      if (!m[key]) return;
      child.off('message', onMsg);
      child.off('exit', onExit);
      resolve(m);
    };
    const onExit = (code: number | null) => reject(new Error(`fan-out instance exited (${code}) before '${key}'`));
    child.on('message', onMsg);
    child.once('exit', onExit);
  });
}

async function runOne(
  bus: 'nats' | 'pg',
  opts: { instances: number; users: number; events: number; concurrency: number },
): Promise<FanoutFigures> {
  const scope = `fanout_${randomBytes(4).toString('hex')}`;
  const children = Array.from({ length: opts.instances }, (_, i) =>
    fork(path.join(import.meta.dirname, 'fanout-instance.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        FANOUT_BUS: bus,
        FANOUT_INDEX: String(i),
        FANOUT_INSTANCES: String(opts.instances),
        FANOUT_USERS: String(opts.users),
        FANOUT_SCOPE: scope,
        FANOUT_NATS_URL: NATS_URL,
        FANOUT_DB_URL: dbUrl(BENCH_DB),
      },
    }),
  );
  try {
    await Promise.all(children.map((c) => nextReply(c, 'ready')));
    const published = children.map((c) => nextReply(c, 'published'));
    for (const c of children) c.send({ cmd: 'go', events: opts.events, concurrency: opts.concurrency });
    const pubs = await Promise.all(published);
    const expectFor = (i: number) => pubs.reduce((n, p) => n + (p.perOwner as number[])[i]!, 0);
    const done = children.map((c) => nextReply(c, 'done'));
    children.forEach((c, i) => {
      c.send({ cmd: 'expect', expect: expectFor(i) });
    });
    const results = await Promise.all(done);
    const start = Math.min(...pubs.map((p) => p.startedAt as number));
    const end = Math.max(...results.map((r) => r.lastAt as number));
    const delivered = results.reduce((n, r) => n + (r.delivered as number), 0);
    const expected = children.reduce((n, _, i) => n + expectFor(i), 0);
    const seconds = (end - start) / 1000;
    return {
      bus,
      eventsPublished: opts.events * opts.instances,
      delivered,
      expected,
      seconds: r2(seconds),
      deliveredPerSecond: Math.round(delivered / seconds),
      receivedPerInstance: results.map((r) => r.received as number),
      latencyMs: {
        p50: r2(Math.max(...results.map((r) => r.p50 as number))),
        p99: r2(Math.max(...results.map((r) => r.p99 as number))),
      },
    };
  } finally {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.send({ cmd: 'stop' });
          }),
      ),
    );
  }
}

export async function fanoutBench(
  opts: { users?: number; eventsPerInstance?: number; concurrency?: number } = {},
): Promise<FanoutBenchResult> {
  const o = {
    instances: 3,
    users: opts.users ?? 30_000,
    events: opts.eventsPerInstance ?? 20_000,
    concurrency: opts.concurrency ?? 32,
  };
  await ensureDatabase();
  // LISTEN/NOTIFY first, then NATS, in the same run (the machine's speed drifts between runs).
  const pg = await runOne('pg', o);
  const nats = await runOne('nats', o);
  const ratio = r2(nats.deliveredPerSecond / pg.deliveredPerSecond);
  return {
    name: `fan-out across ${o.instances} instances, ${o.users.toLocaleString('en')} users, message events to 2 users`,
    instances: o.instances,
    users: o.users,
    eventsPerInstance: o.events,
    concurrency: o.concurrency,
    nats,
    pg,
    ratio,
    pass: ratio >= 1 && nats.delivered === nats.expected && pg.delivered === pg.expected,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  console.log(JSON.stringify(await fanoutBench(quick ? { users: 3000, eventsPerInstance: 3000 } : {}), null, 2));
}
