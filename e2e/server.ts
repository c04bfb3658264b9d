import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { createApp } from '../packages/server/src/app.ts';
import { type Database, migrateToLatest, openDatabase } from '../packages/server/src/db/index.ts';
import { loadConfig } from '../packages/server/src/platform/config.ts';
import { CHROMIUM } from './global-setup.ts';

/**
 * The real server (built web app, embedded database in a temporary folder) on a free port,
 * and Debian's Chromium driven by playwright-core. Never a downloaded browser. The journeys
 * start it through `useE2E` (harness.ts); the web benchmark (bench/web.ts) starts it itself.
 */
export interface E2E {
  baseUrl: string;
  app: FastifyInstance;
  browser: Browser;
  dataDir: string;
  /** The server's database, for seeding (demo users) in a journey. */
  database: Database;
  /** A fresh context (own storage) with a phone-sized viewport; options add e.g. geolocation. */
  newPage(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Extra launch options of one file's browser (calls add fake media devices; others keep the defaults). */
export interface E2EOptions {
  chromiumArgs?: string[];
}

/** Starts the server and the browser; `close` stops both and removes the data folder. */
export async function startE2E(
  env: Record<string, string> = {},
  options: E2EOptions = {},
): Promise<E2E & { close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-e2e-'));
  // Journeys sign up many people from 127.0.0.1: the sign-up limit is the server tests' subject.
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    SIGNUP_LIMIT_PER_SOURCE: '1000000',
    SIGNUP_LIMIT_GLOBAL: '1000000',
    ...env,
  });
  const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  await migrateToLatest(database.db);
  const app = await createApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // playwright gives every launch a fresh temporary profile (--user-data-dir).
    args: [...CHROMIUM_ARGS, ...(options.chromiumArgs ?? [])],
  });
  const e2e: E2E = {
    baseUrl,
    app,
    browser,
    dataDir,
    database,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 1,
        ...options,
      });
      const page = await context.newPage();
      return { context, page };
    },
  };
  return {
    ...e2e,
    async close() {
      await browser.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
