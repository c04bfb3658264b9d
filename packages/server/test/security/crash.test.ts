import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.ts';
import { openDatabase, PGLITE_EXTENSIONS } from '../../src/db/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { setTier, signUpMember } from '../factories.ts';
import { DB_KINDS, type DbKind, openMigratedDatabase } from '../harness.ts';
import { checkConversation, mergeVerdicts, type Sent } from './crash-history.ts';
import { freePort, PrivateCluster, ServerProcess } from './crash-processes.ts';
import {
  CrashClient,
  choose,
  type Member,
  matchesOf,
  newTally,
  type Pair,
  type Payment,
  pay,
  readHistory,
  sendAll,
} from './crash-workload.ts';
import { recordScore } from './scoreboard.ts';

// Server starts (10–50 s each on a loaded machine) and 10,000 messages: minutes, not seconds. On
// PGlite a send costs ~40 ms on a loaded 2-core machine (9 minutes in all), so the limits are wide.
vi.setConfig({ testTimeout: 1_800_000, hookTimeout: 300_000 });

const SENDERS = 20; // in 10 conversations of two, both writing
const PER_SENDER = 500;
const TOTAL = SENDERS * PER_SENDER;
/** What happens to the running system, spread evenly over the messages: the server SIGKILLed, or its database crashed. */
const EVENTS: Record<DbKind, ('kill' | 'database')[]> = {
  pglite: ['kill', 'kill', 'kill'],
  postgres: ['kill', 'database', 'kill', 'kill'],
};
/** The whole run's limit: past it every client gives up and the test fails with what it has. */
const RUN_LIMIT_MS = 1_500_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number) => n.toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The server's environment, the same for the setup in this process and for every run of the real server. */
function serverEnv(dataDir: string, databaseUrl: string | undefined): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Warnings only: a line per request would cost the loaded machine more than the requests.
    LOG_LEVEL: 'warn',
    MODERATION_ENABLED: 'false',
    SANDBOX_WEBHOOK_DELAY_MS: '0',
    // 500 messages a member in a few minutes: the per-minute limit is not this test's subject.
    MESSAGE_LIMIT_PER_MINUTE: '1000000',
    SIGNUP_LIMIT_PER_SOURCE: '1000000',
    SIGNUP_LIMIT_GLOBAL: '1000000',
    TOKEN_SECRET: randomBytes(32).toString('hex'),
    EMAIL_HASH_KEY: randomBytes(32).toString('hex'),
    HEALTH_KEY: randomBytes(32).toString('hex'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
}

/**
 * Before the first start, in this process and through the API: the members (Platinum, so no daily
 * message limit) and their 10 conversations. The real server then starts on a migrated database
 * with nothing left to do but open it; its tokens are signed with the same secrets.
 */
async function prepare(kind: DbKind, env: Record<string, string>, url: string | undefined) {
  const database = await openMigratedDatabase(kind, url, path.join(env.DATA_DIR as string, 'db'));
  const app = await createApp({ config: loadConfig({ ...env, LOG_LEVEL: 'silent' }), database, logger: false });
  await app.ready();
  const members: Member[] = [];
  for (let i = 0; i < SENDERS; i++) {
    const u = await signUpMember(app, database.db);
    await setTier(database.db, u.user.uid, 'platinum');
    members.push({ id: u.user.uid, token: u.token });
  }
  const conversations: string[] = [];
  for (let c = 0; c < SENDERS / 2; c++) {
    const [a, b] = [members[2 * c] as Member, members[2 * c + 1] as Member];
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/conversations',
      headers: { authorization: `Bearer ${a.token}` },
      payload: { userId: b.id },
    });
    if (res.statusCode !== 200) throw new Error(`opening a conversation: ${res.statusCode} ${res.body}`);
    conversations.push(res.json().id as string);
  }
  await app.close(); // closes the database too: PGlite's folder is the real server's from here on
  return { members, conversations };
}

/** The slice of `items` that goes out with the kth of n events (the last one after them all). */
const sliceOf = <T>(items: T[], k: number, n: number) =>
  items.slice(Math.round((k * items.length) / n), Math.round(((k + 1) * items.length) / n));

describe.each(DB_KINDS)('crash safety on %s', (kind) => {
  it('loses, repeats and reorders no acknowledged message, match or charge across SIGKILLs (and database crashes)', async () => {
    const began = Date.now();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-crash-'));
    let cluster: PrivateCluster | null = null;
    let server: ServerProcess | null = null;
    const stop = new AbortController();
    const deadline = setTimeout(() => stop.abort(), RUN_LIMIT_MS);
    try {
      cluster = kind === 'postgres' ? await PrivateCluster.create() : null;
      const env = serverEnv(dataDir, cluster?.url);
      const { members, conversations } = await prepare(kind, env, cluster?.url);
      const prepared = Date.now();
      server = new ServerProcess(await freePort(), env);
      await server.start();
      const up = server;

      const run = randomBytes(3).toString('hex');
      const tally = newTally();
      const client = new CrashClient(up.baseUrl, tally, stop.signal);
      const sent: Sent[][] = members.map((m, s) =>
        Array.from({ length: PER_SENDER }, (_, n) => ({
          sender: m.id,
          n,
          clientId: `crash-${run}-${s}-${n}`,
          content: `Message ${n} from sender ${s}`,
          ack: null,
        })),
      );
      const payments: Payment[] = members.map((member, s) => ({ member, key: `crash-${run}-pay-${s}`, paymentId: null }));
      // 40 pairs that choose each other: every member with the ones 2 and 3 places on (never his conversation's partner).
      const pairs: Pair[] = [2, 3].flatMap((d) =>
        members.map((a, i) => ({
          a,
          b: members[(i + d) % SENDERS] as Member,
          clientIds: [`crash-${run}-sel-${d}-${i}-a`, `crash-${run}-sel-${d}-${i}-b`] as [string, string],
          answered: 0,
        })),
      );

      let acked = 0;
      let sendersDone = false;
      const senders = Promise.allSettled(
        members.map((m, s) =>
          sendAll(client, tally, m, conversations[Math.floor(s / 2)] as string, sent[s] as Sent[], () => acked++),
        ),
      ).finally(() => {
        sendersDone = true;
      });
      const others: Promise<unknown>[] = [];
      const events = EVENTS[kind];
      const launch = (k: number) => {
        for (const p of sliceOf(payments, k, events.length + 1)) others.push(pay(client, tally, p));
        for (const p of sliceOf(pairs, k, events.length + 1)) others.push(choose(client, tally, p));
      };
      const timeline: string[] = [];
      const runStart = Date.now();
      for (const [k, event] of events.entries()) {
        const at = Math.round(((k + 1) * TOTAL) / (events.length + 1));
        while (acked < at && !sendersDone && !stop.signal.aborted) {
          // A server that died on its own is started again (and counted): the clients must not wait forever.
          if (!up.running) await up.start();
          await sleep(25);
        }
        // Payments and selections in flight when it happens: some written and unanswered, some not written.
        launch(k);
        await sleep(Math.random() * 40);
        const t = Date.now();
        if (event === 'kill') {
          await up.kill();
          await up.start();
          timeline.push(`SIGKILL at ${fmt(acked)} acknowledged, up again in ${secs(Date.now() - t)}`);
        } else {
          await cluster?.stopImmediate();
          await sleep(1000);
          await cluster?.start();
          // The server keeps running through its database's crash, and answers again once it is back.
          await sleep(2000);
          if (!up.running) await up.start();
          timeline.push(`database stopped (immediate) at ${fmt(acked)} acknowledged, back in ${secs(Date.now() - t)}`);
        }
      }
      launch(events.length);
      const outcomes = [...(await senders), ...(await Promise.allSettled(others))];
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
      const runMs = Date.now() - runStart;

      // The history each member sees now, against what was sent and acknowledged.
      const verdict = mergeVerdicts(
        await Promise.all(
          conversations.map(async (id, c) =>
            checkConversation(
              [...(sent[2 * c] as Sent[]), ...(sent[2 * c + 1] as Sent[])],
              await readHistory(client, members[2 * c] as Member, id),
            ),
          ),
        ),
      );
      const seen = await Promise.all(members.map((m) => matchesOf(client, m)));
      const listedOnce = pairs.filter(
        (p) => seen[members.indexOf(p.a)]?.get(p.b.id) === 1 && seen[members.indexOf(p.b)]?.get(p.a.id) === 1 && p.answered === 2,
      ).length;
      await up.close();

      // And what the database holds, read straight from it once the server is gone.
      const rows = await storedRows(kind, env.DATA_DIR as string, cluster?.url, members, pairs);
      const pairMatches = rows.matches.filter((n) => n === 1).length;
      const charged = payments.filter(
        (p, i) => p.paymentId && rows.charges[i]?.length === 1 && rows.charges[i]?.[0] === p.paymentId,
      );

      const kills = events.filter((e) => e === 'kill').length;
      const crashes = events.length - kills;
      const what = `${fmt(verdict.sent)} messages, ${kills} kills${crashes ? ` + ${crashes} database crash${crashes > 1 ? 'es' : ''}` : ''}`;
      const figure =
        `${what}: ${verdict.lost.length} lost, ${verdict.duplicated.length} duplicated, ${verdict.outOfOrder.length} out of order; ` +
        `${pairs.length} pairs: ${pairMatches} matches; ${payments.length} keys: ${charged.length} charges`;
      const unexpected = up.unexpectedExits;
      console.log(
        [
          `crash safety on ${kind}: ${figure}`,
          `  set-up ${secs(prepared - began)}, run ${secs(runMs)}, whole test ${secs(Date.now() - began)}`,
          `  server starts: ${up.startMs.map(secs).join(', ')}`,
          ...timeline.map((l) => `  ${l}`),
          `  ${fmt(tally.retries)} retries (${fmt(tally.serverErrors)} of them after a 5xx), ${fmt(tally.replays)} acknowledgements by a retry (first answer lost), ${fmt(verdict.acknowledged)} acknowledged`,
          ...(unexpected.length ? [`  the server died on its own: ${unexpected.join(', ')}`] : []),
          ...(up.deadlocks ? [`  ${up.deadlocks} requests ended in a database deadlock (500)`] : []),
        ].join('\n'),
      );
      const pass =
        failures.length === 0 &&
        tally.refusals.length === 0 &&
        unexpected.length === 0 &&
        up.deadlocks === 0 &&
        verdict.acknowledged === TOTAL &&
        verdict.lost.length + verdict.duplicated.length + verdict.outOfOrder.length + verdict.phantom.length === 0 &&
        rows.messages === TOTAL &&
        pairMatches === pairs.length &&
        listedOnce === pairs.length &&
        charged.length === payments.length;
      recordScore({
        id: '07-crash',
        db: kind,
        measure: `Crash safety: messages from ${SENDERS} clients, mutual selections and payments while the server is SIGKILLed${kind === 'postgres' ? ' and the database stopped (immediate)' : ''}`,
        figure,
        goal: '0 lost, 0 duplicated, 0 out of order; one match per pair; one charge per idempotency key',
        pass,
      });

      expect(failures).toEqual([]);
      expect(tally.refusals).toEqual([]);
      expect(unexpected, `the server exited on its own:\n${up.log}`).toEqual([]);
      // A deadlock is retried by the clients, so it loses nothing here; but each is a 500 to a member.
      expect(up.deadlocks, 'requests that ended in a database deadlock').toBe(0);
      expect(verdict.acknowledged).toBe(TOTAL);
      expect({
        lost: verdict.lost,
        duplicated: verdict.duplicated,
        outOfOrder: verdict.outOfOrder,
        phantom: verdict.phantom,
      }).toEqual({ lost: [], duplicated: [], outOfOrder: [], phantom: [] });
      expect(rows.messages).toBe(TOTAL);
      expect(rows.matches).toEqual(pairs.map(() => 1));
      expect(listedOnce).toBe(pairs.length);
      expect(rows.charges).toEqual(payments.map((p) => [p.paymentId]));
      expect(rows.subscriptions).toEqual(payments.map(() => 1));
    } finally {
      clearTimeout(deadline);
      stop.abort();
      await server?.close();
      await cluster?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The rows behind the answers: messages, each pair's matches, each payer's charges and subscriptions. */
async function storedRows(kind: DbKind, dataDir: string, url: string | undefined, members: Member[], pairs: Pair[]) {
  const database =
    kind === 'postgres'
      ? await openDatabase({ databaseUrl: url })
      : await openDatabase({ pglite: await PGlite.create(path.join(dataDir, 'db'), { extensions: PGLITE_EXTENSIONS }) });
  try {
    const { db } = database;
    const ids = members.map((m) => m.id);
    const messages = await db
      .selectFrom('messages')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('sender_id', 'in', ids)
      .executeTakeFirstOrThrow();
    const matches = await Promise.all(
      pairs.map(async (p) => {
        const [a, b] = [p.a.id, p.b.id].sort() as [string, string];
        const r = await db
          .selectFrom('matches')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('user_a', '=', a)
          .where('user_b', '=', b)
          .executeTakeFirstOrThrow();
        return r.n;
      }),
    );
    const charges = await Promise.all(
      members.map(async (m) =>
        (
          await db
            .selectFrom('payments')
            .select('id')
            .where('user_id', '=', m.id)
            .where('status', '=', 'completed')
            .orderBy('created_at')
            .execute()
        ).map((r) => r.id),
      ),
    );
    const subscriptions = await Promise.all(
      members.map(async (m) => {
        const r = await db
          .selectFrom('subscriptions')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('user_id', '=', m.id)
          .executeTakeFirstOrThrow();
        return r.n;
      }),
    );
    return { messages: messages.n, matches, charges, subscriptions };
  } finally {
    await database.close();
  }
}
