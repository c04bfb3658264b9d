import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { PHOTO_MAX_DIMENSION, PHOTO_WEBP_QUALITY, systemClock } from '@fmk/core';
import { createApp } from '@fmk/server/src/app.ts';
import { migrateToLatest, openDatabase } from '@fmk/server/src/db/index.ts';
import { TokenService } from '@fmk/server/src/platform/auth.ts';
import { loadConfig } from '@fmk/server/src/platform/config.ts';
import pg from 'pg';
import sharp from 'sharp';
import { BENCH_DB, createUsers, dbUrl, ensureDatabase } from './game.ts';
import { photoUploader } from './photo-client.ts';

/**
 * Photo upload: POST /api/v1/messages/photos (multipart, the real app on PostgreSQL,
 * in this process) at `concurrency` uploads in flight, against its floor in the same run: a bare
 * sharp loop doing the same work (metadata read, EXIF rotate, fit inside 1600 px, WebP q80) on the
 * same image at the same concurrency. Meanwhile the app's event loop delay is sampled: the
 * re-encode runs on libuv's pool, so requests must not stall behind it.
 * Moderation is on, as in production: each upload's photo is scored by the model in its worker,
 * once no upload is being re-encoded (at most 10 s later: Moderation's MAX_DEFER_MS), so a round
 * longer than that scores while it uploads.
 * Goals: images/s ≥ 0.8 × the floor, event loop delay p99 ≤ 50 ms.
 */
export interface PhotoBenchResult {
  name: string;
  unit: string;
  samples: number[];
  median: number;
  images: number;
  concurrency: number;
  input: { width: number; height: number; bytes: number };
  app: {
    imagesPerSecond: number;
    errors: number;
    eventLoopDelayMs: { p50: number; p99: number; max: number };
    gc: GcFigures;
  };
  floor: { imagesPerSecond: number; gc: GcFigures };
  ratio: number;
  goal: string;
  pass: boolean;
}

const SCHEMA = 'photo_bench';

/** Garbage collections in this process during a path's timed rounds, per image: full (mark-compact) and all. */
export interface GcFigures {
  majorPerImage: number;
  allPerImage: number;
  /** Main-thread pause of all of them, per image. */
  pauseMsPerImage: number;
}

/** Counts this process's collections while `on` says so. */
function gcCounter() {
  let on = false;
  let major = 0;
  let all = 0;
  let pause = 0;
  const obs = new PerformanceObserver((list) => {
    if (!on) return;
    for (const e of list.getEntries()) {
      all++;
      pause += e.duration;
      if ((e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return {
    set: (value: boolean) => {
      on = value;
    },
    /** The figures per image so far, then zero again. */
    take: (images: number): GcFigures => {
      const r = (x: number) => Math.round((x / images) * 100) / 100;
      const out = { majorPerImage: r(major), allPerImage: r(all), pauseMsPerImage: r(pause) };
      major = all = pause = 0;
      return out;
    },
    close: () => obs.disconnect(),
  };
}

/** A deterministic 12 MP JPEG with detail everywhere (noise), like a phone photo. */
async function sampleJpeg(): Promise<Buffer> {
  return sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: { r: 200, g: 120, b: 90 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function pool(
  count: number,
  concurrency: number,
  one: (i: number) => Promise<boolean>,
): Promise<{ seconds: number; errors: number }> {
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) if (!(await one(i))) errors++;
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, errors };
}

export async function photoBench(opts: { images?: number; concurrency?: number } = {}): Promise<PhotoBenchResult> {
  const images = opts.images ?? 40;
  const concurrency = opts.concurrency ?? 4;
  await ensureDatabase();
  const url = dbUrl(BENCH_DB);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop schema if exists ${SCHEMA} cascade`);
  await admin.query(`create schema ${SCHEMA}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: url, schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-bench-photos-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    TOKEN_SECRET: 'photo-bench-token-secret-0123456789abcdef0123456789',
    EMAIL_HASH_KEY: 'photo-bench-email-hash-key-0123456789abcdef012345678',
    HEALTH_KEY: 'photo-bench-health-key-0123456789abcdef0123456789abc',
    PUSH_ENABLED: 'false',
    // Production wants a mail server and texts; a benchmark sends neither (none listens, SMS off).
    SMTP_URL: 'smtp://127.0.0.1:2525',
    SMS_ENABLED: 'false',
    DATABASE_URL: url,
  });
  const app = await createApp({ config, database, logger: false });
  let uploader: ReturnType<typeof photoUploader> | undefined;
  const floorGc = gcCounter();
  const appGc = gcCounter();
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('server did not bind');
    const base = `http://127.0.0.1:${address.port}`;

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`set search_path to ${SCHEMA}`);
    const auth = await createUsers(client, new TokenService(config.tokenSecret, 60, systemClock), 1, 'photos', 'bench-photo-');
    await client.end();
    const authorization = [...auth.values()][0]!;

    const jpeg = await sampleJpeg();
    const meta = await sharp(jpeg).metadata();
    const phone = photoUploader(`${base}/api/v1/messages/photos`, authorization, [jpeg]);
    uploader = phone;
    const upload = () => phone.upload();
    const bare = async () => {
      await sharp(jpeg).metadata();
      await sharp(jpeg)
        .rotate()
        .resize({ width: PHOTO_MAX_DIMENSION, height: PHOTO_MAX_DIMENSION, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: PHOTO_WEBP_QUALITY })
        .toBuffer();
      return true;
    };
    // Warm-up both paths, then floor and app alternately, twice, keeping each one's better run.
    await pool(concurrency, concurrency, upload);
    await pool(concurrency, concurrency, bare);
    let floorBest = 0;
    let appBest = 0;
    let errors = 0;
    const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100;
    let eventLoopDelayMs = { p50: 0, p99: 0, max: 0 };
    for (let round = 0; round < 2; round++) {
      floorGc.set(true);
      const f = await pool(images, concurrency, bare);
      floorGc.set(false);
      floorBest = Math.max(floorBest, images / f.seconds);
      // A delay monitor re-enabled counts the time it was off as one long delay: one per round, and
      // the worse round's figures are kept.
      const roundEld = monitorEventLoopDelay({ resolution: 5 });
      roundEld.enable();
      appGc.set(true);
      const a = await pool(images, concurrency, upload);
      appGc.set(false);
      roundEld.disable();
      if (roundEld.percentile(99) / 1e6 > eventLoopDelayMs.p99)
        eventLoopDelayMs = { p50: ms(roundEld.percentile(50)), p99: ms(roundEld.percentile(99)), max: ms(roundEld.max) };
      // Scoring waits for uploads to pause (at most MAX_DEFER_MS): it finishes here, outside both
      // timings, so the next floor round does not share the CPUs with it.
      await app.moderation.settle();
      errors += a.errors;
      appBest = Math.max(appBest, (images - a.errors) / a.seconds);
    }
    const ratio = Math.round((appBest / floorBest) * 100) / 100;
    return {
      name: `photo upload images/s vs bare sharp (${concurrency} in flight, ${meta.width}×${meta.height} JPEG)`,
      unit: 'images/s',
      samples: [Math.round(appBest * 100) / 100],
      median: Math.round(appBest * 100) / 100,
      images,
      concurrency,
      input: { width: meta.width ?? 0, height: meta.height ?? 0, bytes: jpeg.length },
      app: { imagesPerSecond: Math.round(appBest * 100) / 100, errors, eventLoopDelayMs, gc: appGc.take(2 * images) },
      floor: { imagesPerSecond: Math.round(floorBest * 100) / 100, gc: floorGc.take(2 * images) },
      ratio,
      goal: 'images/s ≥ 0.8 × bare sharp; event loop delay p99 ≤ 50 ms',
      pass: ratio >= 0.8 && eventLoopDelayMs.p99 <= 50 && errors === 0,
    };
  } finally {
    floorGc.close();
    appGc.close();
    uploader?.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  console.log(JSON.stringify(await photoBench(quick ? { images: 12 } : {}), null, 2));
}
