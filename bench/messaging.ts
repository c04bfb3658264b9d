import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { systemClock } from '@fmk/core';
import { POOL_IDLE_MS } from '@fmk/server/src/db/index.ts';
import { TokenService } from '@fmk/server/src/platform/auth.ts';
import pg from 'pg';
import WebSocket, { WebSocketServer } from 'ws';
import { BENCH_DB, createUsers, dbUrl, ensureDatabase, pct, startBenchServer, waitHealthy } from './game.ts';

/**
 * Messaging: the real server (`main.ts`, its own process, on PostgreSQL) with N open
 * live sockets (one per user, users paired in matched conversations) takes an open-loop rate of
 * POST /conversations/:id/messages over keep-alive HTTP; latency is send start → the
 * {type:'message'} event at the recipient's socket (matched by clientId). The floor, in the same
 * run: a durable relay (its own process) at the same load, each message committed with one raw
 * INSERT and then relayed from one socket to its partner's, its load alternating with the
 * server's in ROUNDS rounds; a bare relay is measured too, for reference. Each side has an
 * unmeasured warm-up first, and each round an unmeasured ramp (RAMP_SECONDS). Then one hot
 * conversation between two users. Bench users live in database `fmk_bench` and are deleted after.
 */
const EMAIL_PREFIX = 'bench-msg-';
/** Sent (2xx) but not at the recipient within this long: lost. */
const LOST_AFTER_MS = 5000;
const MAX_IN_FLIGHT = 64;
/** The server's load and the durable floor's alternate in this many rounds each (messagingBench). */
const ROUNDS = 3;
/** Each side's unmeasured load before its rounds. */
const WARMUP_SECONDS = 3;
/** Each round's unmeasured start (messagingBench). */
const RAMP_SECONDS = 1;

export interface LoadFigures {
  sent: number;
  errors: number;
  /** Non-2xx sends by status ('0': the request failed). */
  errorStatuses: Record<string, number>;
  received: number;
  lost: number;
  /** Messages received per second over the send window. */
  throughput: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** The machine's full I/O stall during the load, ms (ioStallMs). */
  ioStallMs: number;
}

export interface MessagingBenchResult {
  name: string;
  unit: string;
  samples: number[];
  median: number;
  sockets: number;
  rate: number;
  seconds: number;
  server: LoadFigures;
  /** The bare ws relay at the same load (for reference). */
  floor: LoadFigures;
  ratioP99: number;
  /** The floor: raw INSERT … COMMIT per message, then the relay. */
  durable: LoadFigures;
  durableRatioP99: number;
  hot: LoadFigures & { rate: number; seconds: number; pass: boolean };
  goal: string;
  pass: boolean;
}

interface Peer {
  userId: string;
  ws: WebSocket;
}

/** Sends one message of the load; answers its HTTP status (a relay answers 200 once written). */
type Send = (from: string, to: string, conversationId: string, clientId: string) => Promise<number>;

/** Receive bookkeeping shared by every socket of one load: clientId → send start. */
class Tracker {
  pending = new Map<string, { t0: number; to: string }>();
  latencies: number[] = [];
  onMessage(me: string, data: WebSocket.RawData): void {
    const ev = JSON.parse(String(data)) as { type?: string; message?: { clientId?: string; receiverId?: string } };
    if (ev.type !== 'message' || ev.message?.receiverId !== me) return;
    const p = this.pending.get(ev.message.clientId ?? '');
    if (!p || p.to !== me) return;
    this.pending.delete(ev.message.clientId ?? '');
    const ms = performance.now() - p.t0;
    // Later than LOST_AFTER_MS counts as lost (figuresOf: sent − received).
    if (ms <= LOST_AFTER_MS) this.latencies.push(ms);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens one socket per user (bounded parallelism), auth → ready. */
async function openSockets(url: string, users: Array<{ userId: string; token: string }>, tracker: Tracker): Promise<Peer[]> {
  const peers: Peer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < users.length) {
        const u = users[next++]!;
        const ws = new WebSocket(url, { perMessageDeflate: false });
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('socket not ready within 30 s')), 30_000);
          ws.once('error', reject);
          ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token: u.token, id: u.userId })));
          ws.on('message', (data) => {
            if ((JSON.parse(String(data)) as { type?: string }).type === 'ready') {
              clearTimeout(timer);
              ws.removeAllListeners('message');
              ws.on('message', (d) => tracker.onMessage(u.userId, d));
              resolve();
            }
          });
        });
        peers.push({ userId: u.userId, ws });
      }
    }),
  );
  return peers;
}

/**
 * Open-loop load: `rate` sends per second for `seconds`, each between a random pair in a random
 * direction, at most MAX_IN_FLIGHT at once; then waits for stragglers up to LOST_AFTER_MS.
 */
async function load(
  pairs: Array<{ a: string; b: string; conversationId: string }>,
  rate: number,
  seconds: number,
  tracker: Tracker,
  send: Send,
): Promise<Round> {
  let issued = 0;
  let inFlight = 0;
  let errors = 0;
  let ok = 0;
  const errorStatuses: Record<string, number> = {};
  const failed = (status: number) => {
    errors++;
    errorStatuses[status] = (errorStatuses[status] ?? 0) + 1;
  };
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const stall0 = ioStallMs();
  const t0 = performance.now();
  const total = Math.round(rate * seconds);
  while (issued < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate));
    while (issued < due && inFlight < MAX_IN_FLIGHT) {
      issued++;
      const pair = pairs[Math.floor(rnd() * pairs.length)]!;
      const [from, to] = rnd() < 0.5 ? [pair.a, pair.b] : [pair.b, pair.a];
      const clientId = randomUUID();
      tracker.pending.set(clientId, { t0: performance.now(), to });
      inFlight++;
      send(from, to, pair.conversationId, clientId)
        .then((status) => {
          if (status >= 200 && status < 300) ok++;
          else {
            failed(status);
            tracker.pending.delete(clientId);
          }
        })
        .catch(() => {
          failed(0);
          tracker.pending.delete(clientId);
        })
        .finally(() => inFlight--);
    }
    await sleep(1);
  }
  const window = (performance.now() - t0) / 1000;
  // Every send answers first (a stalled request is not a lost message), then stragglers get LOST_AFTER_MS.
  const answered = performance.now() + 60_000;
  while (inFlight > 0 && performance.now() < answered) await sleep(10);
  const deadline = performance.now() + LOST_AFTER_MS;
  while (tracker.pending.size > 0 && performance.now() < deadline) await sleep(10);
  const round: Round = {
    ok,
    errors,
    errorStatuses: { ...errorStatuses },
    latencies: tracker.latencies,
    window,
    ioStallMs: ioStallMs() - stall0,
  };
  tracker.pending.clear();
  tracker.latencies = [];
  return round;
}

/** One load's raw result: rounds of one side are merged into its figures (figuresOf). */
interface Round {
  ok: number;
  errors: number;
  errorStatuses: Record<string, number>;
  latencies: number[];
  window: number;
  /** How long every task of the machine waited on the disk during the load (ioStallMs). */
  ioStallMs: number;
}

/**
 * The machine's time so far with every runnable task stalled on I/O (Linux's pressure stall
 * information, /proc/pressure/io, the `full` line), in ms; 0 where the kernel does not say. A
 * commit waits for the disk's flush, so such a stall delays every message in flight at once.
 */
function ioStallMs(): number {
  try {
    const full = readFileSync('/proc/pressure/io', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('full'));
    return Number(/total=(\d+)/.exec(full ?? '')?.[1] ?? 0) / 1000;
  } catch {
    return 0;
  }
}

function figuresOf(rounds: readonly Round[]): LoadFigures {
  const lat = rounds.flatMap((r) => r.latencies).sort((x, y) => x - y);
  const sent = rounds.reduce((n, r) => n + r.ok, 0);
  const errorStatuses: Record<string, number> = {};
  for (const r of rounds) for (const [k, v] of Object.entries(r.errorStatuses)) errorStatuses[k] = (errorStatuses[k] ?? 0) + v;
  return {
    sent,
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    errorStatuses,
    received: lat.length,
    lost: sent - lat.length,
    throughput: lat.length / rounds.reduce((n, r) => n + r.window, 0),
    latencyMs: { p50: pct(lat, 50), p95: pct(lat, 95), p99: pct(lat, 99), max: lat[lat.length - 1] ?? 0 },
    ioStallMs: Math.round(rounds.reduce((n, r) => n + r.ioStallMs, 0)),
  };
}

/**
 * The floors: a `ws` relay in its own process ({type:'send', to} → the `to` socket). Bare, it
 * relays at once; durable (given a database URL), it first commits the message with one raw
 * INSERT (autocommit: one fsync'd commit each, as the app's durability demands) through a pool
 * the size of the app's, then relays: the least a durable chat can do per message.
 */
const RELAY_TABLE = 'bench_durable_relay';

function echoServerMain(durableUrl: string | undefined): void {
  // Its connections kept while idle as long as the app keeps its own (between rounds).
  const pool = durableUrl ? new pg.Pool({ connectionString: durableUrl, max: 10, idleTimeoutMillis: POOL_IDLE_MS }) : null;
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  const byUser = new Map<string, WebSocket>();
  const relay = (m: { to: string; clientId?: string }) =>
    byUser.get(m.to)?.send(JSON.stringify({ type: 'message', message: { clientId: m.clientId, receiverId: m.to } }));
  wss.on('connection', (s) => {
    let me = '';
    s.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string; id?: string; to?: string; clientId?: string; content?: string };
      if (m.type === 'auth' && m.id) {
        me = m.id;
        byUser.set(m.id, s);
        s.send(JSON.stringify({ type: 'ready', uid: m.id }));
      } else if (m.type === 'send' && m.to) {
        const to = m.to;
        if (!pool) relay({ to, clientId: m.clientId });
        else
          pool
            .query(`insert into ${RELAY_TABLE} (id, sender, receiver, content) values ($1, $2, $3, $4)`, [
              m.clientId,
              me,
              to,
              m.content ?? '',
            ])
            .then(() => relay({ to, clientId: m.clientId }))
            .catch((err: unknown) => process.stderr.write(`durable relay: ${String(err)}\n`));
      }
    });
  });
  wss.on('listening', () => {
    const addr = wss.address();
    process.stdout.write(`${typeof addr === 'object' && addr ? addr.port : 0}\n`);
  });
}

function startEcho(durableUrl?: string): Promise<{ child: ChildProcess; port: number }> {
  const args = ['--import', 'tsx', import.meta.filename, '--echo-server', ...(durableUrl ? [`--durable=${durableUrl}`] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`echo server exited with ${code}`)));
    child.stdout!.once('data', (d) => resolve({ child, port: Number(String(d).trim()) }));
  });
}

/** A relay (bare or durable) in its own process with every user's socket open on it. */
async function openRelay(
  users: Array<{ userId: string; token: string }>,
  durableUrl?: string,
): Promise<{ tracker: Tracker; send: Send; close: () => Promise<void> }> {
  const e = await startEcho(durableUrl);
  const tracker = new Tracker();
  const peers = await openSockets(`ws://127.0.0.1:${e.port}`, users, tracker);
  const byUser = new Map(peers.map((p) => [p.userId, p.ws]));
  const send: Send = async (from, to, _c, clientId) => {
    const ws = byUser.get(from)!;
    await new Promise<void>((resolve, reject) =>
      ws.send(JSON.stringify({ type: 'send', to, clientId, content: `bench ${clientId.slice(0, 8)}` }), (err) =>
        err ? reject(err) : resolve(),
      ),
    );
    return 200;
  };
  const close = async () => {
    for (const p of peers) p.ws.terminate();
    await stop(e.child);
  };
  return { tracker, send, close };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Matches + matched conversations (sorted user_a < user_b) for consecutive pairs of `ids`. */
export async function createConversations(
  client: pg.Client,
  ids: string[],
): Promise<Array<{ a: string; b: string; conversationId: string }>> {
  const pairs: Array<{ a: string; b: string; conversationId: string }> = [];
  for (let i = 0; i + 1 < ids.length; i += 2) {
    const [a, b] = [ids[i]!, ids[i + 1]!].sort();
    pairs.push({ a: a!, b: b!, conversationId: randomUUID() });
  }
  for (let start = 0; start < pairs.length; start += 500) {
    const batch = pairs.slice(start, start + 500);
    const mv: unknown[] = [];
    const cv: unknown[] = [];
    const mrows = batch.map((p, i) => {
      mv.push(randomUUID(), p.a, p.b, JSON.stringify({ [p.a]: 'fuck', [p.b]: 'marry' }));
      return `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, 'mixed', $${i * 4 + 4}::jsonb, now(), now())`;
    });
    const crows = batch.map((p, i) => {
      cv.push(p.conversationId, p.a, p.b);
      return `($${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3}, 'matched', 'dating', 'mixed', true, now(), now(), now())`;
    });
    await client.query(
      `insert into matches (id, user_a, user_b, match_type, user_actions, created_at, matched_at) values ${mrows.join(',')}`,
      mv,
    );
    await client.query(
      `insert into conversations (id, user_a, user_b, type, mode, match_type, is_accepted, created_at, updated_at, last_activity)
        values ${crows.join(',')}`,
      cv,
    );
  }
  return pairs;
}

/**
 * Every load starts from the same database state: the earlier benchmarks (and this one's setup)
 * delete and write tens of thousands of rows in `public`, and autovacuum and the checkpointer then
 * did that work during whichever load came next (the app's, which always came first: p99 18 ms
 * after the persist benchmark against 8 ms alone, while the floor's table was new). So the
 * tables are vacuumed once after setup (`vacuum`), and each load starts after a checkpoint.
 */
async function settleDatabase(client: pg.Client, vacuum = false): Promise<void> {
  if (vacuum) {
    const tables = await client.query<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    );
    for (const { name } of tables.rows) await client.query(`vacuum (analyze) public."${name}"`);
  }
  // The report's earlier loads (the game, persist) leave autovacuum work behind: it waits for
  // the workers to finish (60 s at most) rather than share the machine with either side's load.
  for (let waited = 0; waited < 60_000; waited += 500) {
    const busy = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum worker'`,
    );
    if ((busy.rows[0]?.n ?? 0) === 0) break;
    await sleep(500);
  }
  await client.query('checkpoint');
}

export interface MessagingOptions {
  sockets?: number;
  rate?: number;
  seconds?: number;
  hotRate?: number;
  hotSeconds?: number;
}

/**
 * The benchmark in a process of its own: its client (2,000 sockets, the senders, the latency
 * bookkeeping) then starts with an empty heap, as it does alone, instead of inheriting the
 * garbage and timers of the report's earlier loads (HTTP at ~40,000 req/s, the game, persist).
 */
export function messagingBenchInChild(opts: MessagingOptions = {}): Promise<MessagingBenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, `--options=${JSON.stringify(opts)}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`messaging benchmark exited with ${code}`));
      try {
        resolve(JSON.parse(out.slice(out.indexOf('{'))) as MessagingBenchResult);
      } catch (err) {
        reject(err);
      }
    });
  });
}

export async function messagingBench(opts: MessagingOptions = {}): Promise<MessagingBenchResult> {
  const sockets = opts.sockets ?? 2000;
  const rate = opts.rate ?? 200;
  const seconds = opts.seconds ?? 30;
  const hotRate = opts.hotRate ?? 60;
  const hotSeconds = opts.hotSeconds ?? 10;
  await ensureDatabase();
  const { child, base, port, secret, dataDir } = await startBenchServer('fmk-bench-msg-');
  const client = new pg.Client({ connectionString: dbUrl(BENCH_DB) });
  const open: WebSocket[] = [];
  let server: LoadFigures;
  let floor: LoadFigures;
  let durable: LoadFigures;
  let hot: LoadFigures;
  try {
    await waitHealthy(base, child);
    await client.connect();
    await client.query(`delete from users where email like '${EMAIL_PREFIX}%'`);
    const tokens = new TokenService(secret, 24 * 60, systemClock);
    const auth = await createUsers(client, tokens, sockets, randomBytes(4).toString('hex'), EMAIL_PREFIX);
    const ids = [...auth.keys()];
    const pairs = await createConversations(client, ids);
    await settleDatabase(client, true);
    const users = ids.map((userId) => ({ userId, token: auth.get(userId)!.replace(/^Bearer /, '') }));

    // The real server.
    const tracker = new Tracker();
    const peers = await openSockets(`ws://127.0.0.1:${port}/api/v1/live`, users, tracker);
    open.push(...peers.map((p) => p.ws));
    // node:http keep-alive, as the grid's and the trivial route's clients: the client shares the two
    // cores with the server and PostgreSQL, and fetch made it several times busier (and its GC
    // pauses, 10-30 ms every ~600 ms at this load, landed in the latencies it measured).
    const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
    const httpSend: Send = (from, _to, conversationId, clientId) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ clientId, type: 'text', content: `bench ${clientId.slice(0, 8)}` });
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `/api/v1/conversations/${conversationId}/messages`,
            agent,
            headers: {
              authorization: auth.get(from)!,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    // The durable floor's relay, its sockets open beside the server's: the two loads alternate in
    // ROUNDS rounds of equal length, so that a stall of the machine (its disk's flushes stall now
    // and then for 100 ms or more, PostgreSQL's and the relay's alike) falls on either with the
    // same chance instead of deciding the ratio by which of them it hit.
    await client.query(
      `create table if not exists ${RELAY_TABLE} (id uuid primary key, sender text not null, receiver text not null, content text not null, created_at timestamptz not null default now())`,
    );
    await client.query(`truncate ${RELAY_TABLE}`);
    const durableRelay = await openRelay(users, dbUrl(BENCH_DB));
    const serverRounds: Round[] = [];
    const durableRounds: Round[] = [];
    try {
      await sleep(500);
      // Warm-up, not measured: each side's first messages (JIT, the pools' connections, the
      // database's caches for these users) at the same load.
      await load(pairs, rate, WARMUP_SECONDS, tracker, httpSend);
      await load(pairs, rate, WARMUP_SECONDS, durableRelay.tracker, durableRelay.send);
      await settleDatabase(client);
      // Each round starts with RAMP_SECONDS of the same load, not measured: a side comes back from
      // the other's round idle, and what idling undid is not the steady state being measured
      // (after 8 s idle V8's memory reducer shrinks the heap, which the next burst grows back
      // page by page; a page fault costs ~12 µs on this machine's VM).
      const round = async (t: Tracker, send: Send) => {
        await load(pairs, rate, RAMP_SECONDS, t, send);
        return load(pairs, rate, seconds / ROUNDS, t, send);
      };
      for (let r = 0; r < ROUNDS; r++) {
        serverRounds.push(await round(tracker, httpSend));
        durableRounds.push(await round(durableRelay.tracker, durableRelay.send));
      }
    } finally {
      await durableRelay.close();
    }
    server = figuresOf(serverRounds);
    durable = figuresOf(durableRounds);
    // One hot conversation, on its own (the first pair).
    hot = figuresOf([await load(pairs.slice(0, 1), hotRate, hotSeconds, tracker, httpSend)]);
    agent.destroy();
    for (const ws of open.splice(0)) ws.terminate();

    // The bare relay at the same load, for reference.
    await settleDatabase(client);
    const bare = await openRelay(users);
    try {
      await sleep(500);
      floor = figuresOf([await load(pairs, rate, seconds, bare.tracker, bare.send)]);
    } finally {
      await bare.close();
    }
  } finally {
    for (const ws of open) ws.terminate();
    await client.query(`delete from users where email like '${EMAIL_PREFIX}%'`).catch(() => {});
    await client.end().catch(() => {});
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const ratioP99 = server.latencyMs.p99 / Math.max(floor.latencyMs.p99, 0.001);
  const durableRatioP99 = server.latencyMs.p99 / Math.max(durable.latencyMs.p99, 0.001);
  const hotPass = hot.lost === 0 && hot.errors === 0 && hot.throughput >= 50;
  const pass =
    server.latencyMs.p99 <= 50 &&
    durableRatioP99 <= 2 &&
    server.lost === 0 &&
    server.errors === 0 &&
    durable.lost === 0 &&
    hotPass;
  return {
    name: `messaging send→receive p99 on PostgreSQL (${sockets} sockets, ${rate} msg/s, ${seconds} s)`,
    unit: 'ms',
    samples: [server.latencyMs.p99],
    median: server.latencyMs.p99,
    sockets,
    rate,
    seconds,
    server,
    floor,
    ratioP99,
    durable,
    durableRatioP99,
    hot: { ...hot, rate: hotRate, seconds: hotSeconds, pass: hotPass },
    goal: 'p99 ≤ 50 ms and p99 ≤ 2 × the durable relay floor p99, nothing lost; one hot conversation ≥ 50 msg/s, nothing lost',
    pass,
  };
}

if (process.argv.includes('--echo-server'))
  echoServerMain(process.argv.find((a) => a.startsWith('--durable='))?.slice('--durable='.length));
else if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const given = process.argv.find((a) => a.startsWith('--options='))?.slice('--options='.length);
  const r = await messagingBench(
    given ? (JSON.parse(given) as MessagingOptions) : quick ? { sockets: 500, rate: 50, seconds: 15 } : {},
  );
  console.log(JSON.stringify(r, null, 2));
}
