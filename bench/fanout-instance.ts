import { openDatabase } from '@fmk/server/src/db/index.ts';
import { NatsBus } from '@fmk/server/src/platform/bus/nats.ts';
import { type Bus, type LiveEvent, PgBus } from '@fmk/server/src/platform/bus.ts';

/**
 * One server instance of the fan-out benchmark (fanout.ts forks three): the real bus (PgBus or
 * NatsBus) with a subscriber for each of its users, as the live channel holds one per socket. On
 * 'go' it publishes its share of events, each to two users drawn from all instances (a message
 * goes to its sender and its receiver), with `concurrency` publishes in flight as requests would;
 * it counts what its subscribers get and when.
 */
const env = (k: string) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} missing`);
  return v;
};
const kind = env('FANOUT_BUS') as 'nats' | 'pg';
const index = Number(env('FANOUT_INDEX'));
const instances = Number(env('FANOUT_INSTANCES'));
const users = Number(env('FANOUT_USERS'));
const scope = env('FANOUT_SCOPE');

/** User k lives on instance k % instances. */
export const userId = (k: number) => `00000000-0000-4000-8000-${k.toString(16).padStart(12, '0')}`;
const now = () => performance.timeOrigin + performance.now();

const send = (msg: unknown) => process.send?.(msg);

let bus: Bus & { received: number };
let close = async () => {};
if (kind === 'nats') {
  const nats = await NatsBus.create({ servers: [env('FANOUT_NATS_URL')], prefix: `fmkbench.${scope}` });
  bus = nats;
  close = () => nats.close();
} else {
  const database = await openDatabase({ databaseUrl: env('FANOUT_DB_URL'), schema: scope });
  const pgBus = await PgBus.create({ url: env('FANOUT_DB_URL'), schema: scope, db: database.db });
  bus = pgBus;
  close = async () => {
    await pgBus.close();
    await database.close();
  };
}

let delivered = 0;
let lastAt = 0;
const latencies: number[] = [];
for (let k = index; k < users; k += instances) {
  bus.subscribe(userId(k), (e: LiveEvent) => {
    delivered++;
    lastAt = now();
    latencies.push(lastAt - (e.t as number));
  });
}
if (bus instanceof NatsBus) await bus.flush();

/** A small PRNG (mulberry32): the same draws in every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

process.on('message', async (msg: { cmd: string; events?: number; concurrency?: number; expect?: number }) => {
  if (msg.cmd === 'go') {
    const random = rng(1000 + index);
    const perOwner = new Array<number>(instances).fill(0);
    let next = 0;
    const t0 = now();
    await Promise.all(
      Array.from({ length: msg.concurrency! }, async () => {
        while (next < msg.events!) {
          const n = next++;
          const a = Math.floor(random() * users);
          let b = Math.floor(random() * users);
          if (b === a) b = (b + 1) % users;
          perOwner[a % instances]!++;
          perOwner[b % instances]!++;
          // A message event's size: ids, a seq, its text.
          await bus.publish([userId(a), userId(b)], {
            type: 'message',
            t: now(),
            message: {
              id: `m-${index}-${n}`,
              conversationId: `c-${a}-${b}`,
              senderId: userId(a),
              receiverId: userId(b),
              seq: n,
              content: 'a message of an ordinary length, about sixty characters long',
              createdAt: new Date().toISOString(),
            },
          });
        }
      }),
    );
    send({ published: true, perOwner, publishMs: now() - t0, startedAt: t0 });
  }
  if (msg.cmd === 'expect') {
    const deadline = Date.now() + 60_000;
    while (delivered < msg.expect! && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    latencies.sort((x, y) => x - y);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
    send({ done: true, delivered, lastAt, received: bus.received, p50: pct(0.5), p99: pct(0.99) });
  }
  if (msg.cmd === 'stop') {
    await close();
    process.exit(0);
  }
});
send({ ready: true });
