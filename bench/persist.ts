import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '@fmk/core';
import { migrateToLatest, openDatabase } from '@fmk/server/src/db/index.ts';
import { MessagingService } from '@fmk/server/src/modules/messaging/service.ts';
import { loadActor } from '@fmk/server/src/platform/access.ts';
import { TokenService } from '@fmk/server/src/platform/auth.ts';
import { LocalBus } from '@fmk/server/src/platform/bus.ts';
import { SignedUrls } from '@fmk/server/src/platform/media/signed-urls.ts';
import { LocalDiskStorage } from '@fmk/server/src/platform/storage.ts';
import pg from 'pg';
import { BENCH_DB, createUsers, dbUrl, ensureDatabase } from './game.ts';
import { createConversations } from './messaging.ts';

/**
 * Persisted messages per second: the messaging service's send (every check and write of
 * a real send: sender lock, idempotency, participants and blocks, daily limit, per-user ordering
 * locks, the message, the day's counter, the conversation, stats) at `concurrency` sends in
 * flight on PostgreSQL, against its floor in the same run: a raw INSERT of the same message rows
 * through the driver at the same concurrency. Goal: ≥ 0.5 × the floor.
 */
export interface PersistBenchResult {
  name: string;
  unit: string;
  samples: number[];
  median: number;
  messages: number;
  concurrency: number;
  app: { perSecond: number; errors: number };
  floor: { perSecond: number };
  ratio: number;
  goal: string;
  pass: boolean;
}

const SCHEMA = 'persist_bench';

async function pool(count: number, concurrency: number, one: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await one(i);
    }),
  );
  return count / ((performance.now() - t0) / 1000);
}

export async function persistBench(
  opts: { messages?: number; concurrency?: number; pairs?: number } = {},
): Promise<PersistBenchResult> {
  const messages = opts.messages ?? 6000;
  const concurrency = opts.concurrency ?? 16;
  const pairCount = opts.pairs ?? 500;
  await ensureDatabase();
  const url = dbUrl(BENCH_DB);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists ${SCHEMA} cascade`);
  await client.query(`create schema ${SCHEMA}`);
  const database = await openDatabase({ databaseUrl: url, schema: SCHEMA });
  const raw = new pg.Pool({ connectionString: url, max: concurrency, options: `-c search_path=${SCHEMA}` });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-bench-persist-'));
  try {
    await migrateToLatest(database.db, SCHEMA);
    await client.query(`set search_path to ${SCHEMA}`);
    const auth = await createUsers(
      client,
      new TokenService('x'.repeat(32), 60, systemClock),
      pairCount * 2,
      'persist',
      'bench-persist-',
    );
    const pairs = await createConversations(client, [...auth.keys()]);
    const messaging = new MessagingService({
      db: database.db,
      clock: systemClock,
      bus: new LocalBus(),
      storage: new LocalDiskStorage(dataDir),
      signedUrls: new SignedUrls('x'.repeat(32), systemClock),
    });
    // As a request does: the sender's actor is read, then the send.
    const send = async (i: number) => {
      const p = pairs[i % pairs.length]!;
      const [from] = i % 2 ? [p.a] : [p.b];
      const actor = await loadActor(database.db, from);
      if (!actor) throw new Error(`no user ${from}`);
      await messaging.send(actor, p.conversationId, { clientId: randomUUID(), type: 'text', content: `bench message ${i}` });
    };
    const insert = async (i: number) => {
      const p = pairs[i % pairs.length]!;
      const [from, to] = i % 2 ? [p.a, p.b] : [p.b, p.a];
      await raw.query(
        `insert into messages (id, conversation_id, sender_id, receiver_id, client_id, type, content, created_at)
         values ($1, $2, $3, $4, $5, 'text', $6, now())`,
        [randomUUID(), p.conversationId, from, to, randomUUID(), `bench message ${i}`],
      );
    };
    // Warm-up both, then alternate twice and keep each one's better run.
    await pool(concurrency * 4, concurrency, send);
    await pool(concurrency * 4, concurrency, insert);
    let app = 0;
    let floor = 0;
    for (let round = 0; round < 2; round++) {
      floor = Math.max(floor, await pool(messages, concurrency, insert));
      app = Math.max(app, await pool(messages, concurrency, send));
    }
    const ratio = Math.round((app / floor) * 100) / 100;
    return {
      name: `persisted messages/s vs raw INSERT (${concurrency} in flight, PostgreSQL)`,
      unit: 'messages/s',
      samples: [Math.round(app)],
      median: Math.round(app),
      messages,
      concurrency,
      app: { perSecond: Math.round(app), errors: 0 },
      floor: { perSecond: Math.round(floor) },
      ratio,
      goal: 'messages/s ≥ 0.5 × a raw INSERT loop of the same rows',
      pass: ratio >= 0.5,
    };
  } finally {
    await raw.end();
    await database.close();
    await client.query(`drop schema if exists ${SCHEMA} cascade`).catch(() => {});
    await client.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  console.log(JSON.stringify(await persistBench(quick ? { messages: 1500, pairs: 200 } : {}), null, 2));
}
