import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../packages/server/src/platform/storage.ts';
import { seedDemoUsers } from '../packages/server/src/seed.ts';
import { axeViolations, CASTRO, join, located, NEARBY, onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

/** The screen as a phone shows it (full-page captures misplace the sticky bars). */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(import.meta.dirname, 'screenshots', `${name}.png`) });
}

async function axe(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

describe('the grid and the game in Chromium', () => {
  const e = useE2E();

  it('two men nearby pick each other and both see the match toast live', async () => {
    const a = await e().newPage(located(CASTRO));
    const b = await e().newPage(located(NEARBY));

    await signUp(a.page);
    await onboard(a.page, 'Alex');
    await a.page.getByRole('button', { name: 'Finish' }).click();
    await a.page.waitForURL('**/grid');
    await a.page.getByRole('heading', { name: "See who's nearby" }).waitFor();
    await screenshot(a.page, 'grid-consent');
    await a.page.getByRole('button', { name: 'Share my location' }).click();
    await a.page.getByRole('heading', { name: 'No one nearby yet' }).waitFor();

    // Ben joins after Alex's grid was first served today: he still opens (any 5 / 25 a day).
    await join(b.page, 'Ben');
    await b.page.getByRole('link', { name: /^Alex, 29/ }).waitFor();

    // A finds B on his grid, opens him and picks fuck.
    await a.page.goto('/grid');
    await a.page.getByRole('link', { name: /^Ben, 29, < 1 (mi|km) away/ }).click();
    await a.page.waitForURL('**/profile/**');
    await a.page.getByRole('heading', { level: 1, name: 'Ben, 29' }).waitFor();
    await a.page.getByRole('button', { name: 'Fuck Ben' }).waitFor();
    await shot(a.page, 'profile-actions');
    await axe(a.page);
    const picked = a.page.waitForResponse((r) => r.url().endsWith('/api/v1/selections'));
    await a.page.getByRole('button', { name: 'Fuck Ben' }).click();
    expect((await picked).status()).toBe(200);
    await a.page.waitForURL('**/grid');

    // B sees A among who likes him (beta users are Premium: faces and names), opens him, marries.
    await b.page.goto('/likes');
    const likedBy = b.page.getByRole('link', { name: /^Alex, 29: fuck/ });
    await likedBy.waitFor();
    await screenshot(b.page, 'likes-premium');
    await axe(b.page);
    await likedBy.click();
    await b.page.getByRole('button', { name: 'Marry Alex' }).click();

    // Both get the match toast: B from his selection's answer, A over the live channel.
    for (const [p, other] of [
      [a.page, 'Ben'],
      [b.page, 'Alex'],
    ] as const) {
      const toast = p.locator('[data-toast-type="match"]');
      await toast.getByText("It's a match!").waitFor({ timeout: 10_000 });
      await toast.getByText(`You and ${other} picked each other.`).waitFor();
    }
    await shot(a.page, 'match-toast');
    expect(await a.page.locator('[data-toast-type="match"]').count()).toBe(1);

    // Say hi leads to the chat with him; the match is listed on Messages.
    // (/messages/chat/:userId opens the conversation, then replaces itself with /messages/:id.)
    await b.page.getByRole('button', { name: 'Say hi' }).click();
    await b.page.waitForURL(/\/messages\/(chat\/)?[^/]+$/);
    await a.page.goto('/messages');
    await a.page
      .getByRole('region', { name: 'New matches' })
      .getByRole('link', { name: /^Ben: Mixed match/ })
      .waitFor();
    await screenshot(a.page, 'messages-matches');
    await a.context.close();
    await b.context.close();
  });

  it('scrolls a grid of demo users, locks profiles past the tier limit and filters', async () => {
    const storage = new LocalDiskStorage(path.join(e().dataDir, 'files'));
    await seedDemoUsers(e().database.db, storage, { count: 150, city: 'San Francisco', seed: 4 });
    const { context, page } = await e().newPage(located(CASTRO));
    await join(page, 'Chris');
    const grid = page.getByRole('list', { name: 'Men nearby' });
    await grid.waitFor();
    await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
    await screenshot(page, 'grid');
    await axe(page);

    // Virtualised: far fewer cells in the page than profiles loaded.
    const rendered = await grid.locator('a, button').count();
    expect(rendered).toBeGreaterThan(6);
    expect(rendered).toBeLessThan(60);

    // A beta sign-up is Premium: 25 opens today, nothing locked until they are spent. Spend them
    // (as 25 profile visits would), then the rest of the grid locks.
    await page.getByText('25 of 25 profile opens left today').waitFor();
    const spent = await page.evaluate(async () => {
      const headers = { authorization: `Bearer ${localStorage.getItem('auth_token')}` };
      const g = (await (await fetch('/api/v1/grid?limit=60', { headers })).json()) as { items: { uid: string }[] };
      let n = 0;
      for (const c of g.items.slice(0, 25)) if ((await fetch(`/api/v1/users/${c.uid}`, { headers })).ok) n++;
      return n;
    });
    expect(spent).toBe(25);
    await page.reload();
    await grid.waitFor();
    await page.getByText('0 of 25 profile opens left today').waitFor();
    // Scroll to the end: the next page loads, and the cells not opened are locked.
    for (let i = 0; i < 12; i++) {
      await page.mouse.wheel(0, 1500);
      await page.waitForTimeout(120);
    }
    const locked = grid.getByRole('button', { name: /Locked profile/ }).first();
    await locked.waitFor();
    await locked.click();
    await page.getByText('Open every profile with Platinum membership...').waitFor();
    await shot(page, 'grid-locked-upsell');
    await page.getByRole('button', { name: 'Not now' }).click();

    // Filters.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('dialog', { name: 'Filters' }).waitFor();
    await shot(page, 'grid-filters');
    await page.getByRole('switch', { name: 'Online now' }).check();
    await page.getByRole('button', { name: 'Show results' }).click();
    await page.getByRole('dialog', { name: 'Filters' }).waitFor({ state: 'hidden' });

    // A demo profile with the action bar.
    await page.getByRole('button', { name: /Filters/ }).click();
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('button', { name: 'Show results' }).click();
    await grid
      .getByRole('link', { name: /^(?!Alex|Ben)/ })
      .first()
      .click();
    await page.waitForURL('**/profile/demo-*');
    await page.getByRole('button', { name: /^Kill / }).waitFor();
    await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete));
    await shot(page, 'profile-demo');
    const name = await page.getByRole('heading', { level: 1 }).textContent();
    const uid = new URL(page.url()).pathname.split('/').pop();
    await page.getByRole('button', { name: /^Kill / }).click();
    await page.waitForURL('**/grid');
    // Killed: gone from the grid for this session.
    await grid.waitFor();
    expect(await grid.locator(`a[href="/profile/${uid}"]`).count()).toBe(0);
    expect(name).toBeTruthy();
    await context.close();
  });
});
