import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, photoFile, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

const CASTRO = { latitude: 37.7609, longitude: -122.435 };
const NEARBY = { latitude: 37.7612, longitude: -122.4346 };
const located = (geolocation: { latitude: number; longitude: number }) => ({ permissions: ['geolocation'], geolocation });

async function join(page: Page, name: string): Promise<void> {
  await signUp(page);
  await onboard(page, name);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL('**/grid');
  await page.getByRole('button', { name: 'Share my location' }).click();
  await page.getByRole('button', { name: 'Share my location' }).waitFor({ state: 'detached' });
}

describe('safety in Chromium', () => {
  const e = useE2E();

  it("a man reports another from their chat with a screenshot, and sees the 'received' alert in the Safety centre", async () => {
    const a = await e().newPage(located(CASTRO));
    const b = await e().newPage(located(NEARBY));
    await join(a.page, 'Alex');
    await join(b.page, 'Ben');

    // They match, and Ben writes something nasty.
    await a.page.goto('/grid');
    await a.page.getByRole('link', { name: /^Ben, 29/ }).click();
    await a.page.getByRole('button', { name: 'Fuck Ben' }).click();
    await a.page.waitForURL('**/grid');
    await b.page.goto('/likes');
    await b.page.getByRole('link', { name: /^Alex, 29: fuck/ }).click();
    await b.page.getByRole('button', { name: 'Fuck Alex' }).click();
    await b.page.locator('[data-toast-type="match"]').getByText("It's a match!").waitFor({ timeout: 10_000 });
    await b.page.goto('/messages');
    await b.page
      .getByRole('region', { name: 'New matches' })
      .getByRole('link', { name: /^Alex:/ })
      .click();
    await b.page.waitForURL(/\/messages\/(?!chat)[^/]+$/);
    await b.page.getByRole('textbox', { name: 'Message' }).fill('you are worthless');
    await b.page.getByRole('button', { name: 'Send' }).click();

    // Alex opens the chat and reports Ben from its menu.
    await a.page.goto('/messages');
    await a.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /^Ben/ }).click();
    await a.page.getByRole('list', { name: 'Messages' }).getByText('you are worthless').waitFor({ timeout: 10_000 });
    await a.page.getByRole('button', { name: 'Chat options' }).click();
    await a.page.getByRole('button', { name: 'Report', exact: true }).click();
    const form = a.page.getByRole('form', { name: 'Report Ben' });
    await form.getByLabel('What kind of problem?').selectOption('harassment');
    await form.getByLabel('What happened, in a few words').fill('He insults me');
    await form.locator('input[type="file"]').setInputFiles(await photoFile());
    await form.getByRole('list', { name: 'Attached screenshots' }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-report-sheet');
    await form.getByRole('button', { name: 'Send report' }).click();
    await a.page.getByText('Report sent').waitFor({ timeout: 10_000 });

    // The Safety centre, from Settings: the 'received' alert with its block action.
    await a.page.goto('/settings');
    await a.page.getByRole('link', { name: 'Safety centre' }).click();
    await a.page.waitForURL('**/safety');
    const list = a.page.getByRole('list', { name: 'Safety alerts' });
    await list.getByRole('heading', { name: 'Report received' }).waitFor({ timeout: 10_000 });
    await list.getByRole('button', { name: 'Block him' }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-centre');

    await list.getByRole('button', { name: 'Mark read' }).click();
    await list.getByRole('button', { name: 'Mark read' }).waitFor({ state: 'detached' });
    await list.getByRole('button', { name: 'Dismiss' }).click();
    await a.page.getByRole('heading', { name: 'No alerts' }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-centre-empty');
  });
});
