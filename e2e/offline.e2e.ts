import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, CASTRO, join, located, matchEachOther, NEARBY } from './flows.ts';
import { useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(import.meta.dirname, 'screenshots', `${name}.png`) });
}

/** The offline copy as the browser holds it (features/offline/persist.ts), read with IndexedDB itself. */
function storedCopy(
  page: Page,
): Promise<{ keys: string[]; queryKeys: unknown[][]; chats: { messages: { content: string }[] }[] }> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open('fmk-offline');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('snapshots')) return resolve({ keys: [], queryKeys: [], chats: [] });
          const store = db.transaction('snapshots', 'readonly').objectStore('snapshots');
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onsuccess = () => {
            const all = values.result as { queries: { queryKey: unknown[] }[]; chats: { messages: { content: string }[] }[] }[];
            resolve({
              keys: keys.result.map(String),
              queryKeys: all.flatMap((v) => v.queries.map((q) => q.queryKey)),
              chats: all.flatMap((v) => v.chats),
            });
            db.close();
          };
        };
      }),
  );
}

const photosKept = (page: Page) =>
  page.evaluate(async () => (await (await caches.open('fmk-photos-v1')).keys()).map((r) => new URL(r.url).pathname));

describe('offline in Chromium', () => {
  const e = useE2E();

  it('shows the last grid, the conversation and its messages offline under the offline bar, and sends what was written offline once back', async () => {
    const a = await e().newPage(located(CASTRO));
    const b = await e().newPage(located(NEARBY));
    await join(a.page, 'Alex');
    await join(b.page, 'Ben');

    // They pick each other and say hi, as in messaging.e2e.ts.
    await matchEachOther(a.page, 'Alex', b.page, 'Ben');
    await a.page.goto('/messages');
    await a.page.getByRole('region', { name: 'New matches' }).getByRole('link', { name: /^Ben:/ }).click();
    await a.page.waitForURL(/\/messages\/(?!chat)[^/]+$/);
    const chatPath = new URL(a.page.url()).pathname;
    await a.page.getByRole('textbox', { name: 'Message' }).fill('hey there');
    await a.page.getByRole('button', { name: 'Send' }).click();
    await b.page.goto(chatPath);
    await b.page.getByRole('list', { name: 'Messages' }).getByText('hey there').waitFor({ timeout: 10_000 });
    await b.page.getByRole('textbox', { name: 'Message' }).fill('hi Alex!');
    await b.page.getByRole('button', { name: 'Send' }).click();
    await a.page.getByRole('list', { name: 'Messages' }).getByText('hi Alex!').waitFor({ timeout: 10_000 });

    // A's service worker is installed; a page it controls keeps the photos it shows.
    await a.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await a.page.goto('/grid');
    const benCell = a.page.getByRole('list', { name: 'Men nearby' }).getByRole('link', { name: /^Ben, 29/ });
    await benCell.waitFor();
    await expect.poll(async () => (await photosKept(a.page)).some((p) => p.endsWith('.t.webp')), { timeout: 10_000 }).toBe(true);
    await a.page.goto(chatPath);
    await a.page.getByRole('list', { name: 'Messages' }).getByText('hi Alex!').waitFor();

    // The copy holds the grid, the conversation and its messages, and never health data (the
    // shell asked for the medications, for the Health tab's dot) or activity data.
    await expect
      .poll(async () => (await storedCopy(a.page)).chats.flatMap((c) => c.messages.map((m) => m.content)), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['hey there', 'hi Alex!']));
    const copy = await storedCopy(a.page);
    expect(copy.keys).toHaveLength(1);
    const features = new Set(copy.queryKeys.map((k) => k[0]));
    expect(features.has('discovery')).toBe(true);
    expect(features.has('messaging')).toBe(true);
    // The Messages tab's list itself, not only the chat's own query.
    expect(copy.queryKeys).toContainEqual(['messaging', 'conversations']);
    expect(features.has('health')).toBe(false);
    expect(features.has('activity')).toBe(false);

    // The network goes; the app starts again from the service worker and the copy.
    await a.context.setOffline(true);
    await a.page.goto('/grid');
    const banner = a.page.getByRole('status').filter({ hasText: "You're offline" });
    await banner.waitFor();
    await benCell.waitFor();
    expect(await a.page.getByText("We couldn't load the grid").count()).toBe(0);
    // His face, from the service worker's cache.
    await expect
      .poll(() => benCell.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await shot(a.page, 'offline-grid');
    expect(await axeViolations(a.page)).toEqual([]);

    await a.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Messages/ })
      .click();
    const row = a.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /^Ben/ });
    await row.getByText('hi Alex!').waitFor();
    await row.click();
    const list = a.page.getByRole('list', { name: 'Messages' });
    await list.getByText('hey there').waitFor();
    await list.getByText('hi Alex!').waitFor();
    expect(await banner.isVisible()).toBe(true);

    // A reload of the chat itself, offline.
    await a.page.reload();
    await list.getByText('hi Alex!').waitFor();
    await banner.waitFor();

    // Written offline: it waits, and says so.
    await a.page.getByRole('textbox', { name: 'Message' }).fill('on my way');
    await a.page.getByRole('button', { name: 'Send' }).click();
    await list.getByText('Waiting for connection').waitFor();
    await a.page.getByRole('status').filter({ hasText: '1 message waiting to send' }).waitFor();
    await shot(a.page, 'offline-chat');

    // Back online: it goes, and Ben gets it.
    await a.context.setOffline(false);
    await a.page
      .getByTestId('message-status')
      .getByText(/Sent|Delivered|Read/)
      .waitFor({ timeout: 15_000 });
    expect(await list.getByText('Waiting for connection').count()).toBe(0);
    expect(await list.getByText('on my way').count()).toBe(1);
    await b.page.getByRole('list', { name: 'Messages' }).getByText('on my way').waitFor({ timeout: 10_000 });
    await expect.poll(() => banner.count(), { timeout: 10_000 }).toBe(0);

    // Signing out deletes the copy and the kept photos.
    await a.page.goto('/settings');
    await a.page.getByRole('button', { name: 'Sign out' }).click();
    await a.page.waitForURL((u) => u.pathname === '/');
    await expect.poll(async () => (await storedCopy(a.page)).keys).toEqual([]);
    await expect.poll(() => photosKept(a.page)).toEqual([]);

    await a.context.close();
    await b.context.close();
  });
});
