import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { STRICT_HOLD_AT } from '@fmk/core';
import { NsfwScorer } from '@fmk/server/src/platform/moderation/scorer.ts';
import { faceOf, portraitSvg, renderPortrait } from '@fmk/server/src/seed-portraits.ts';
import { explicitLookingImage, neutralImage } from '@fmk/server/test/moderation-images.ts';
import sharp from 'sharp';

/**
 * The moderation model (NSFW.js MobileNetV2 on TensorFlow.js WASM, in its worker, as the server
 * runs it) on a labelled set made here, since the repository ships no photo of a person:
 * - neutral (label 0): the tests' drawn landscapes, flat shapes, text cards, and the seed's
 *   illustrated, clothed portraits (DiceBear Avataaars in a scene, what the demo world shows);
 * - explicit-looking (label 1): the tests' drawn close-ups of bare skin (skin tone, shading, a
 *   crease, grain, blur). Nothing in them is explicit: they are what can be drawn without a photo.
 * It prints, and writes to bench/results/moderation-eval.{json,md}: precision and recall of the
 * label at the server's thresholds (the spec's hold 0.8, strict mode's 0.5, the 0.02 the server
 * tests use for drawn images) and at the best threshold for this set, the score ranges of each
 * label, ms per image and the process's memory with the model loaded.
 *
 * `npx tsx moderation-eval.ts [--quick]` from bench/ (--quick: a smaller set, about a minute).
 */

type Labelled = { name: string; kind: string; label: 0 | 1; image: Buffer };

async function shapeImage(i: number): Promise<Buffer> {
  const colours = ['e63946', '457b9d', '2a9d8f', 'f4a261', '6d597a', '264653'];
  const a = colours[i % colours.length];
  const b = colours[(i + 2) % colours.length];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="500"><rect width="400" height="500" fill="#f8f8f8"/>
    <circle cx="${120 + i * 17}" cy="180" r="90" fill="#${a}"/><rect x="180" y="260" width="170" height="170" fill="#${b}" transform="rotate(${i * 11} 265 345)"/>
    <polygon points="60,460 140,320 220,460" fill="#${colours[(i + 4) % colours.length]}"/></svg>`;
  return sharp(Buffer.from(svg)).webp().toBuffer();
}

async function textImage(i: number): Promise<Buffer> {
  const lines = ['Gym, coffee, repeat', 'Looking for dates', 'Ask me about hiking', 'Brunch on Sundays', 'Dog dad'];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="500"><rect width="400" height="500" fill="#${i % 2 ? 'ffffff' : '1d3557'}"/>
    <text x="30" y="250" font-family="sans-serif" font-size="34" fill="#${i % 2 ? '111111' : 'f1faee'}">${lines[i % lines.length]}</text></svg>`;
  return sharp(Buffer.from(svg)).webp().toBuffer();
}

async function labelledSet(quick: boolean): Promise<Labelled[]> {
  const n = quick
    ? { landscapes: 5, shapes: 3, texts: 3, portraits: 6, explicit: 8 }
    : { landscapes: 10, shapes: 6, texts: 6, portraits: 24, explicit: 30 };
  const set: Labelled[] = [];
  for (let i = 0; i < n.landscapes; i++)
    set.push({ name: `landscape ${i}`, kind: 'landscape', label: 0, image: await neutralImage(i) });
  for (let i = 0; i < n.shapes; i++) set.push({ name: `shapes ${i}`, kind: 'shapes', label: 0, image: await shapeImage(i) });
  for (let i = 0; i < n.texts; i++) set.push({ name: `text ${i}`, kind: 'text', label: 0, image: await textImage(i) });
  for (let i = 0; i < n.portraits; i++) {
    const portrait = await renderPortrait(portraitSvg(faceOf(i * 5), i % 3));
    set.push({ name: `portrait ${i}`, kind: 'portrait', label: 0, image: portrait.photo });
  }
  for (let i = 0; i < n.explicit; i++)
    set.push({ name: `skin close-up ${i}`, kind: 'explicit-looking', label: 1, image: await explicitLookingImage(i) });
  return set;
}

interface AtThreshold {
  threshold: number;
  why: string;
  precision: number | null;
  recall: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

function at(scored: { label: 0 | 1; nudity: number }[], threshold: number, why: string): AtThreshold {
  const tp = scored.filter((s) => s.label === 1 && s.nudity >= threshold).length;
  const fp = scored.filter((s) => s.label === 0 && s.nudity >= threshold).length;
  const fn = scored.filter((s) => s.label === 1 && s.nudity < threshold).length;
  return {
    threshold,
    why,
    // No photo at all reached the threshold: precision is undefined, not 1.
    precision: tp + fp === 0 ? null : r3(tp / (tp + fp)),
    recall: r3(tp / Math.max(1, tp + fn)),
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
  };
}

/** The threshold with the best F1 on this set (between two neighbouring scores). */
function best(scored: { label: 0 | 1; nudity: number }[]): AtThreshold {
  const values = [...new Set(scored.map((s) => s.nudity))].sort((a, b) => a - b);
  let top = at(scored, 1.01, 'best F1 on this set');
  let topF1 = -1;
  for (const v of values) {
    const r = at(scored, v, 'best F1 on this set');
    const p = r.precision ?? 0;
    const f1 = p + r.recall === 0 ? 0 : (2 * p * r.recall) / (p + r.recall);
    if (f1 > topF1) {
      topF1 = f1;
      top = r;
    }
  }
  return top;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const mb = (bytes: number) => Math.round(bytes / 1e6);

export async function moderationEval(opts: { quick?: boolean } = {}) {
  const set = await labelledSet(opts.quick === true);
  const rssBefore = process.memoryUsage().rss;
  const scorer = new NsfwScorer();
  try {
    const t0 = performance.now();
    await scorer.score(set[0]!.image);
    const loadMs = Math.round(performance.now() - t0);
    const rssLoaded = process.memoryUsage().rss;
    const scored: { name: string; kind: string; label: 0 | 1; nudity: number; ms: number }[] = [];
    const t1 = performance.now();
    for (const s of set) {
      const r = await scorer.score(s.image);
      scored.push({ name: s.name, kind: s.kind, label: s.label, nudity: r3(r.nudity), ms: r.ms });
    }
    const wall = performance.now() - t1;
    const ms = scored.map((s) => s.ms).sort((a, b) => a - b);
    const kinds = [...new Set(scored.map((s) => s.kind))].map((kind) => {
      const k = scored.filter((s) => s.kind === kind).map((s) => s.nudity);
      return { kind, label: scored.find((s) => s.kind === kind)!.label, n: k.length, min: Math.min(...k), max: Math.max(...k) };
    });
    const thresholds = [
      at(scored, 0.8, "the spec's hold threshold (MODERATION_HOLD_AT default)"),
      at(scored, STRICT_HOLD_AT, "strict mode's threshold (core STRICT_HOLD_AT)"),
      at(scored, 0.02, 'what the server tests use for drawn images'),
      best(scored),
    ];
    const held = thresholds[0]!;
    const maxNeutral = Math.max(...scored.filter((s) => s.label === 0).map((s) => s.nudity));
    const topNeutral = kinds.filter((k) => k.label === 0).sort((a, b) => b.max - a.max)[0]!;
    const verdict = [
      held.truePositives === 0
        ? `No drawn image reaches the production threshold 0.8: there, precision is undefined and recall 0 on this set.`
        : `At the production threshold 0.8 the model flags ${held.truePositives} of ${held.truePositives + held.falseNegatives} explicit-looking images (recall ${held.recall}) and ${held.falsePositives} neutral ones (precision ${held.precision ?? 'undefined'}).`,
      `Neutral images score at most ${maxNeutral} (highest: ${topNeutral.kind}, up to ${topNeutral.max}).`,
      "Limits: every image is drawn (no photograph of a person, clothed or not, is in the set), so these figures show that the real model runs and separates the two drawn sets; they do not estimate its precision or recall on members' photos, where shirtless or underwear photos are the hard cases.",
      loadavg()[0]! > cpus().length
        ? `Timings were taken on a loaded machine (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores): run again on a quiet one for the model's speed.`
        : '',
    ]
      .filter(Boolean)
      .join(' ');
    return {
      at: new Date().toISOString(),
      machine: `${cpus().length} cores · load average ${loadavg()[0]!.toFixed(1)} at the start · Node ${process.version}`,
      model: 'NSFW.js 4 MobileNetV2 (224 px), TensorFlow.js WASM backend, one worker thread; nudity = Porn + Hentai',
      set: {
        images: set.length,
        neutral: set.filter((s) => s.label === 0).length,
        explicitLooking: set.filter((s) => s.label === 1).length,
      },
      scoresByKind: kinds,
      thresholds,
      msPerImage: {
        median: r3(ms[Math.floor(ms.length / 2)]!),
        p95: r3(ms[Math.floor(ms.length * 0.95)]!),
        wallPerImage: r3(wall / set.length),
      },
      loadMs,
      memoryMb: { rssBeforeModel: mb(rssBefore), rssModelLoaded: mb(rssLoaded), rssAfter: mb(process.memoryUsage().rss) },
      verdict,
      images: scored.map(({ name, label, nudity, ms: m }) => ({ name, label, nudity, ms: r3(m) })),
    };
  } finally {
    await scorer.close();
  }
}

function markdown(r: Awaited<ReturnType<typeof moderationEval>>, quick: boolean): string {
  const p = (x: number | null) => (x === null ? 'undefined (nothing flagged)' : String(x));
  return [
    '# Moderation model: measured on a labelled set we made',
    '',
    `${r.at}${quick ? ' (--quick: a smaller set)' : ''} · ${r.machine}`,
    '',
    `Model: ${r.model}.`,
    `Set: ${r.set.images} images, ${r.set.neutral} neutral and ${r.set.explicitLooking} explicit-looking (bench/moderation-eval.ts says how each is drawn).`,
    '',
    '| Kind | Label | Images | Nudity min | Nudity max |',
    '| --- | --- | --- | --- | --- |',
    ...r.scoresByKind.map((k) => `| ${k.kind} | ${k.label ? 'explicit-looking' : 'neutral'} | ${k.n} | ${k.min} | ${k.max} |`),
    '',
    '| Threshold | What it is | Precision | Recall | TP | FP | FN |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...r.thresholds.map(
      (t) =>
        `| ${t.threshold} | ${t.why} | ${p(t.precision)} | ${t.recall} | ${t.truePositives} | ${t.falsePositives} | ${t.falseNegatives} |`,
    ),
    '',
    `Time: ${r.msPerImage.median} ms an image (median; p95 ${r.msPerImage.p95} ms; ${r.msPerImage.wallPerImage} ms wall an image with the hand-over to the worker); the model loads in ${r.loadMs} ms.`,
    `Memory (process RSS): ${r.memoryMb.rssBeforeModel} MB before the model, ${r.memoryMb.rssModelLoaded} MB with it loaded, ${r.memoryMb.rssAfter} MB after the set.`,
    '',
    `**Verdict.** ${r.verdict}`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const r = await moderationEval({ quick });
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'moderation-eval.json'), `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync(path.join(dir, 'moderation-eval.md'), markdown(r, quick));
  const { images: _, ...summary } = r;
  console.log(JSON.stringify(summary, null, 2));
}
