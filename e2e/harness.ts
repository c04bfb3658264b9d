import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type E2E, type E2EOptions, startE2E } from './server.ts';

export { CHROMIUM_ARGS, type E2E, type E2EOptions } from './server.ts';

/** One file's real server and Chromium (server.ts), started before its tests and stopped after. */
export function useE2E(env: Record<string, string> = {}, options: E2EOptions = {}): () => E2E {
  let current: Awaited<ReturnType<typeof startE2E>> | null = null;
  beforeAll(async () => {
    current = await startE2E(env, options);
  });
  afterAll(async () => {
    await current?.close();
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
