import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CASTRO, join, located, matchEachOther, NEARBY } from './flows.ts';
import { useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(import.meta.dirname, 'screenshots', `${name}.png`) });
}

describe('messaging in Chromium', () => {
  const e = useE2E();

  it('two matched men chat live with typing and read receipts, then a block removes the chat for both', async () => {
    const a = await e().newPage(located(CASTRO));
    const b = await e().newPage(located(NEARBY));
    await join(a.page, 'Alex');
    await join(b.page, 'Ben');

    // They pick each other: A fucks B, B fucks A back.
    await matchEachOther(a.page, 'Alex', b.page, 'Ben');

    // B waits on his list; A opens the chat from New matches and says hey.
    await b.page.goto('/messages');
    await a.page.goto('/messages');
    await a.page.getByRole('region', { name: 'New matches' }).getByRole('link', { name: /^Ben:/ }).click();
    await a.page.waitForURL(/\/messages\/(?!chat)[^/]+$/);
    await a.page.getByRole('textbox', { name: 'Message' }).fill('hey there');
    await a.page.getByRole('button', { name: 'Send' }).click();
    await a.page
      .getByTestId('message-status')
      .getByText(/Sent|Delivered/)
      .waitFor();

    // B's list shows it live, with an unread badge; he opens it.
    const row = b.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /^Alex/ });
    await row.getByText('hey there').waitFor({ timeout: 10_000 });
    await row.getByTestId('unread-badge').waitFor();
    await shot(b.page, 'messages-list');
    await row.click();
    await b.page.getByRole('list', { name: 'Messages' }).getByText('hey there').waitFor();

    // A (beta users are Premium) sees Read once B has the chat open.
    await a.page.getByTestId('message-status').getByText('Read').waitFor({ timeout: 10_000 });

    // B types: A sees typing…; B replies: A sees it live.
    await b.page.getByRole('textbox', { name: 'Message' }).pressSequentially('hi Al', { delay: 30 });
    await a.page.getByText('typing…').first().waitFor({ timeout: 5000 });
    await b.page.getByRole('textbox', { name: 'Message' }).pressSequentially('ex!');
    await b.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await a.page.getByRole('list', { name: 'Messages' }).getByText('hi Alex!').waitFor({ timeout: 10_000 });
    await shot(a.page, 'chat');
    expect(await a.page.getByRole('list', { name: 'Messages' }).getByText('hi Alex!').count()).toBe(1);

    // A blocks B from the chat menu: the chat is gone from both lists.
    await a.page.getByRole('button', { name: 'Chat options' }).click();
    await a.page.getByRole('button', { name: 'Block', exact: true }).click();
    await a.page.getByRole('button', { name: 'Block Ben' }).click();
    await a.page.waitForURL('**/messages');
    await a.page.locator('[data-toast-type="success"]').getByText('Blocked').first().waitFor();
    await b.page.goto('/messages');
    for (const p of [a.page, b.page]) {
      await p.getByRole('heading', { name: 'No conversations yet' }).waitFor({ timeout: 10_000 });
      expect(await p.getByRole('list', { name: 'Conversations' }).count()).toBe(0);
    }
    await a.context.close();
    await b.context.close();
  });
});
