import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { systemClock } from '@fmk/core';
import { createApp } from '@fmk/server/src/app.ts';
import { migrateToLatest, openDatabase } from '@fmk/server/src/db/index.ts';
import { TokenService } from '@fmk/server/src/platform/auth.ts';
import { loadConfig } from '@fmk/server/src/platform/config.ts';
import { reencodePhoto } from '@fmk/server/src/platform/media/image.ts';
import { NsfwScorer } from '@fmk/server/src/platform/moderation/scorer.ts';
import pg from 'pg';
import sharp from 'sharp';
import { BENCH_DB, createUsers, dbUrl, ensureDatabase } from './game.ts';
import { photoUploader } from './photo-client.ts';

/**
 * Photo moderation:
 * - the model alone: images/s on one worker (NSFW.js MobileNetV2, WASM backend), one image at a
 *   time, on stored photos (1600 px WebP, what the app scores), and the model's ms per image;
 * - the app: `photos` chat photo uploads (POST /api/v1/messages/photos, real app on PostgreSQL,
 *   4 in flight), each scored in the background, while the app's event loop delay is sampled
 *   from the first upload until the last photo is scored. Goal: p99 ≤ 50 ms;
 * - the process's RSS with the model loaded.
 */
export interface ModerationBenchResult {
  name: string;
  unit: string;
  samples: number[];
  median: number;
  model: { imagesPerSecond: number; msPerImage: number; loadMs: number };
  app: {
    photos: number;
    uploadSeconds: number;
    scoredSeconds: number;
    errors: number;
    eventLoopDelayMs: { p50: number; p99: number; max: number };
  };
  /** The process (app + worker): once the model is loaded, and after the uploads (sharp's caches). */
  rssMb: { modelLoaded: number; afterUploads: number };
  goal: string;
  pass: boolean;
}

const SCHEMA = 'moderation_bench_h6';

/** A 12 MP JPEG with detail everywhere (noise), like a phone photo. */
function sampleJpeg(i: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: { r: 120 + (i % 5) * 20, g: 120, b: 90 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const r2 = (x: number) => Math.round(x * 100) / 100;

async function modelAlone(images: number): Promise<ModerationBenchResult['model']> {
  const scorer = new NsfwScorer();
  try {
    const stored = (await reencodePhoto(await sampleJpeg(0))).data;
    const t0 = performance.now();
    await scorer.score(stored);
    const loadMs = performance.now() - t0;
    const ms: number[] = [];
    const t1 = performance.now();
    for (let i = 0; i < images; i++) ms.push((await scorer.score(stored)).ms);
    const seconds = (performance.now() - t1) / 1000;
    ms.sort((a, b) => a - b);
    return { imagesPerSecond: r2(images / seconds), msPerImage: r2(ms[Math.floor(ms.length / 2)]!), loadMs: Math.round(loadMs) };
  } finally {
    await scorer.close();
  }
}

export async function moderationBench(opts: { photos?: number; modelImages?: number } = {}): Promise<ModerationBenchResult> {
  const photos = opts.photos ?? 100;
  const model = await modelAlone(opts.modelImages ?? 30);

  await ensureDatabase();
  const url = dbUrl(BENCH_DB);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop schema if exists ${SCHEMA} cascade`);
  await admin.query(`create schema ${SCHEMA}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: url, schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-bench-moderation-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    TOKEN_SECRET: 'moderation-bench-token-secret-0123456789abcdef012345',
    EMAIL_HASH_KEY: 'moderation-bench-email-hash-key-0123456789abcdef0123',
    HEALTH_KEY: 'moderation-bench-health-key-0123456789abcdef01234567',
    PUSH_ENABLED: 'false',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    SMS_ENABLED: 'false',
    DATABASE_URL: url,
  });
  const app = await createApp({ config, database, logger: false });
  let uploader: ReturnType<typeof photoUploader> | undefined;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('server did not bind');
    const base = `http://127.0.0.1:${address.port}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`set search_path to ${SCHEMA}`);
    const auth = await createUsers(client, new TokenService(config.tokenSecret, 60, systemClock), 1, 'moderation', 'bench-mod-');
    await client.end();
    const authorization = [...auth.values()][0]!;
    const jpegs = await Promise.all([0, 1, 2, 3, 4].map(sampleJpeg));
    const phone = photoUploader(`${base}/api/v1/messages/photos`, authorization, jpegs);
    uploader = phone;
    const upload = (i: number) => phone.upload(i);
    // Warm-up: the app's worker loads the model.
    await upload(0);
    await app.moderation.settle();
    const rssLoadedMb = Math.round(process.memoryUsage().rss / 1e6);

    const eld = monitorEventLoopDelay({ resolution: 5 });
    eld.enable();
    const t0 = performance.now();
    let next = 0;
    let errors = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = next++; i < photos; i = next++) if (!(await upload(i))) errors++;
      }),
    );
    const uploadSeconds = (performance.now() - t0) / 1000;
    await app.moderation.settle();
    const scoredSeconds = (performance.now() - t0) / 1000;
    eld.disable();
    const rssAfterMb = Math.round(process.memoryUsage().rss / 1e6);
    const ms = (ns: number) => r2(ns / 1e6);
    const eventLoopDelayMs = { p50: ms(eld.percentile(50)), p99: ms(eld.percentile(99)), max: ms(eld.max) };
    return {
      name: `moderation: NSFW.js on one worker; ${photos} chat photo uploads (12 MP JPEG, 4 in flight) scored in the background`,
      unit: 'images/s',
      samples: [model.imagesPerSecond],
      median: model.imagesPerSecond,
      model,
      app: { photos, uploadSeconds: r2(uploadSeconds), scoredSeconds: r2(scoredSeconds), errors, eventLoopDelayMs },
      rssMb: { modelLoaded: rssLoadedMb, afterUploads: rssAfterMb },
      goal: 'event loop delay p99 ≤ 50 ms while photos are uploaded and scored',
      pass: eventLoopDelayMs.p99 <= 50 && errors === 0,
    };
  } finally {
    uploader?.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  console.log(JSON.stringify(await moderationBench(quick ? { photos: 20, modelImages: 10 } : {}), null, 2));
}
