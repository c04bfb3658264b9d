import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../packages/server/src/app.ts';
import { type Database, migrateToLatest, openDatabase } from '../packages/server/src/db/index.ts';
import { loadConfig } from '../packages/server/src/platform/config.ts';
import { CHROMIUM } from './global-setup.ts';

/**
 * The real server (built web app, embedded database in a temporary folder) on a free port,
 * and Debian's Chromium driven by playwright-core. Never a downloaded browser.
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

export function useE2E(env: Record<string, string> = {}, options: E2EOptions = {}): () => E2E {
  let current: E2E | null = null;
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fmk-e2e-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', ...env });
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
    current = {
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
  });
  afterAll(async () => {
    if (!current) return;
    await current.browser.close();
    await current.app.close();
    rmSync(current.dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!current) throw new Error('e2e not started');
    return current;
  };
}

/** Saves a screenshot under e2e/screenshots (ignored by git) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(import.meta.dirname, 'screenshots', `${name}.png`), fullPage: true });
}
