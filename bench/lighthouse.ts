import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { type RunnerResult } from 'lighthouse';
import { type Cookie, chromium } from 'playwright-core';
import { CHROMIUM } from '../e2e/global-setup.ts';
import { CHROMIUM_ARGS } from '../e2e/server.ts';

/**
 * Debian's Chromium on a DevTools port for Lighthouse (it drives its own tab over CDP), with a
 * profile of its own. Lighthouse's default config is the mobile one: a Moto G Power sized screen
 * and simulated slow 4G with a 4x slower CPU.
 */
export interface LighthouseBrowser {
  port: number;
  /** Puts a signed-in session (local storage and cookies from another browser) into this profile. */
  signIn(origin: string, storage: Record<string, string>, cookies: Cookie[]): Promise<void>;
  run(url: string): Promise<LighthouseResult>;
  close(): Promise<void>;
}

export interface LighthouseResult {
  /** The performance score, 0–100, with the CPU this machine gave the page (see `contention`). */
  score: number;
  /** The score as Lighthouse reports it on this machine, other processes' load included. */
  rawScore: number;
  /** Wall time over CPU time of the page's main-thread tasks: 1 on an idle machine. */
  contention: number;
  cls: number;
  metrics: Record<'fcp' | 'lcp' | 'tbt' | 'si', number>;
}

/** The fields of a Chromium trace event these measurements read. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** Wall time and thread (CPU) time, in microseconds. */
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** The tasks run on the pages' main threads (renderers' CrRendererMain). */
export function mainThreadTasks(traceEvents: TraceEvent[]): TraceEvent[] {
  const main = new Set(
    traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return traceEvents.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
}

/**
 * How much longer the page's main-thread tasks took than the CPU time they used: other
 * processes on a shared machine (parallel test runs) stretch every task. 1 when idle.
 */
export function contentionOf(traceEvents: TraceEvent[]): number {
  let wall = 0;
  let cpu = 0;
  for (const e of mainThreadTasks(traceEvents)) {
    if (e.tdur === undefined) continue;
    wall += e.dur ?? 0;
    cpu += e.tdur;
  }
  return cpu > 0 ? Math.max(1, wall / cpu) : 1;
}

export async function launchForLighthouse(): Promise<LighthouseBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'fmk-lighthouse-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const portFile = path.join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 30_000;
  while (!existsSync(portFile) || readFileSync(portFile, 'utf8').split('\n').length < 2) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('Chromium did not open its DevTools port');
    await new Promise((r) => setTimeout(r, 100));
  }
  const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);

  /**
   * Lighthouse's default (mobile) run in two steps: gather the page load, then audit it twice,
   * as gathered and with the simulated 4x CPU slowdown divided by the load other processes put
   * on this machine meanwhile. Simulated throttling multiplies each observed task by 4, so a
   * task already stretched 3x by a parallel test run would count 12x; on an idle machine (CI)
   * both audits agree.
   */
  async function measure(url: string): Promise<LighthouseResult> {
    const dir = mkdtempSync(path.join(tmpdir(), 'fmk-lighthouse-run-'));
    try {
      const flags = { logLevel: 'error' as const, onlyCategories: ['performance'] };
      await lighthouse(url, { ...flags, port, gatherMode: dir });
      const trace = JSON.parse(readFileSync(path.join(dir, 'defaultPass.trace.json'), 'utf8')) as { traceEvents: TraceEvent[] };
      const contention = contentionOf(trace.traceEvents);
      const raw = lhrOf(await lighthouse(url, { ...flags, auditMode: dir }), url);
      // The artifacts keep the settings they were gathered with; Lighthouse audits only with those.
      const artifactsFile = path.join(dir, 'artifacts.json');
      const artifacts = JSON.parse(readFileSync(artifactsFile, 'utf8')) as { settings: { throttling: Record<string, number> } };
      const throttling = { ...artifacts.settings.throttling };
      throttling.cpuSlowdownMultiplier = (throttling.cpuSlowdownMultiplier ?? 4) / contention;
      artifacts.settings.throttling = throttling;
      writeFileSync(artifactsFile, JSON.stringify(artifacts));
      const lhr = lhrOf(
        await lighthouse(
          url,
          { ...flags, auditMode: dir },
          { extends: 'lighthouse:default', settings: { onlyCategories: flags.onlyCategories, throttling } },
        ),
        url,
      );
      // LIGHTHOUSE_REPORTS=<folder>: keep each run's full report there, to read what a score lost.
      const keep = process.env.LIGHTHOUSE_REPORTS;
      if (keep) {
        const name = `${new URL(url).pathname.replace(/\W+/g, '-') || 'root'}-${Date.now()}.json`;
        writeFileSync(path.join(keep, name), JSON.stringify(lhr));
      }
      const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      return {
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        rawScore: Math.round((raw.categories.performance?.score ?? 0) * 100),
        contention,
        cls: value('cumulative-layout-shift'),
        metrics: {
          fcp: value('first-contentful-paint'),
          lcp: value('largest-contentful-paint'),
          tbt: value('total-blocking-time'),
          si: value('speed-index'),
        },
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  return {
    port,
    async signIn(origin, storage, cookies) {
      // Lighthouse resets service workers and caches before each run, but not local storage.
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const context = browser.contexts()[0];
      if (!context) throw new Error('no default browser context');
      await context.addCookies(cookies);
      const page = await context.newPage();
      await page.goto(`${origin}/favicon.svg`);
      await page.evaluate((items) => {
        for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
      }, storage);
      await page.close();
      await browser.close();
    },
    async run(url) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await measure(url);
        } catch (e) {
          // Lighthouse's own transient failures (NO_NAVSTART, a lost trace) are worth one more go.
          if (attempt === 3) throw e;
        }
      }
    },
    async close() {
      child.kill();
      await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

function lhrOf(result: RunnerResult | undefined, url: string): RunnerResult['lhr'] {
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  if (typeof lhr.categories.performance?.score !== 'number') throw new Error(`Lighthouse gave no performance score for ${url}`);
  return lhr;
}

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
