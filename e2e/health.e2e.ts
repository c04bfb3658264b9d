import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { onboard, signUp } from './flows.ts';
import { useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

const TIME_ZONE = 'Europe/Berlin';

/** What a phone shows: the top of the screen, and with `scrolled` also its end. */
async function shot(page: Page, name: string, opts: { scrolled?: boolean } = {}): Promise<void> {
  const file = (n: string) => path.join(import.meta.dirname, 'screenshots', `${n}.png`);
  if (!(await page.getByRole('dialog').count())) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file(name) });
  if (opts.scrolled) {
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(200);
    await page.screenshot({ path: file(`${name}-end`) });
    await page.evaluate(() => window.scrollTo(0, 0));
  }
}

/** The wall-clock time now in `timeZone`, as an <input type="time"> value. */
function timeNowIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date());
}

/** The Health tab's red dot, announced to screen readers as "needs attention". */
const dot = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Health/ })
    .getByText('needs attention');

async function join(page: Page, name: string): Promise<void> {
  await signUp(page);
  await onboard(page, name);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL('**/grid');
}

describe('health and activity in Chromium', () => {
  const e = useE2E();

  it('a medication due now: toast and red dot, then marked taken and the dot is gone', async () => {
    const { page } = await e().newPage({ timezoneId: TIME_ZONE });
    await join(page, 'Hugo');

    // No screening yet: the screening is overdue, so the Health tab already has its dot.
    await page.goto('/health');
    await page.getByText('Screening overdue').waitFor();
    await dot(page).waitFor({ state: 'attached' });
    await shot(page, 'health-empty', { scrolled: true });

    // Record today's screening: no longer overdue, the dot goes.
    await page.getByRole('button', { name: 'Record' }).click();
    const screening = page.getByRole('dialog', { name: 'Record a screening' });
    await screening.getByLabel('HIV result').selectOption('negative');
    await shot(page, 'health-screening-sheet');
    await screening.getByRole('button', { name: 'Save screening' }).click();
    await page.getByText('Screening up to date').waitFor();
    await expect.poll(() => dot(page).count()).toBe(0);

    // Add a medication due now (the browser's wall clock): a reminder toast and the dot.
    await page.getByRole('button', { name: 'Add medication' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add medication' });
    await sheet.getByLabel('Name').fill('PrEP');
    await sheet.getByLabel('Reminder time').fill(timeNowIn(TIME_ZONE));
    await shot(page, 'health-medication-sheet');
    await sheet.getByRole('button', { name: 'Save medication' }).click();
    const toast = page.locator('[data-toast-type="warning"]').filter({ hasText: 'Time for PrEP' });
    await toast.waitFor({ timeout: 10_000 });
    await dot(page).waitFor({ state: 'attached' });
    await page.getByText('Due now').first().waitFor();
    await shot(page, 'health-due');
    // The same screen with the notifications closed: the dose due now stands out.
    for (const close of await page.getByRole('button', { name: 'Dismiss notification' }).all()) await close.click();
    await expect.poll(() => page.locator('[data-toast-type]').count()).toBe(0);
    await shot(page, 'health-due-card');

    // Mark it taken: the dot is gone, the dose is in the history.
    await page.getByRole('button', { name: 'Mark PrEP taken' }).click();
    await page.getByRole('button', { name: 'Undo PrEP taken' }).waitFor();
    await expect.poll(() => dot(page).count()).toBe(0);
    await page.getByRole('heading', { name: 'Recent doses' }).waitFor();
    // Taking it also took the reminder toast away.
    await expect.poll(() => page.locator('[data-toast-type="warning"]').count()).toBe(0);
    await page.waitForTimeout(4500); // the confirmation toasts slide away for a clean picture
    await shot(page, 'health-taken', { scrolled: true });

    // The hub shows today's dose as taken and the screening up to date.
    await page.goto('/track');
    await page.getByRole('heading', { name: "Today's reminders" }).waitFor();
    await page.getByText('Taken', { exact: true }).waitFor();
    await page.getByText('Screening up to date').waitFor();
    await shot(page, 'track', { scrolled: true });
  });

  it('logging an activity with a new contact changes the stats', async () => {
    const { page } = await e().newPage({ timezoneId: TIME_ZONE });
    await join(page, 'Leo');

    await page.goto('/activity');
    const stat = (label: string) =>
      page
        .getByRole('region', { name: 'Your stats' })
        .locator('div')
        .filter({ has: page.getByText(label, { exact: true }) });
    await page.getByText('Nothing logged yet').waitFor();
    expect(await stat('Total').locator('dd').textContent()).toBe('0');
    expect(await stat('Favourite activity').locator('dd').textContent()).toBe('None');
    await shot(page, 'activity-empty');

    await page.getByRole('link', { name: 'Log', exact: true }).click();
    await page.waitForURL('**/activity/log');
    await page.getByLabel('Partner', { exact: true }).fill('Marco');
    await page.getByRole('button', { name: 'Add partner' }).click();
    await page.getByLabel('Location').fill('Hotel');
    await page.getByRole('button', { name: 'Add Kissing' }).click();
    await page.getByText('Protected', { exact: true }).click();
    await page.getByLabel('4 stars').check({ force: true });
    await page.getByLabel('Duration (minutes)').fill('45');
    await shot(page, 'activity-log-form', { scrolled: true });
    await page.getByRole('button', { name: 'Save entry' }).click();
    await page.waitForURL('**/activity');

    await expect.poll(() => stat('Total').locator('dd').textContent()).toBe('1');
    expect(await stat('Partners').locator('dd').textContent()).toBe('1');
    expect(await stat('Avg rating').locator('dd').textContent()).toBe('4.0');
    expect(await stat('This week').locator('dd').textContent()).toBe('1');
    expect(await stat('Favourite activity').locator('dd').textContent()).toBe('Kissing');
    expect(await stat('Favourite place').locator('dd').textContent()).toBe('Hotel');
    const contacts = page.getByRole('region', { name: 'Contacts' });
    await contacts.getByText('Marco').waitFor();
    await contacts.getByText(/1 time · last Today/).waitFor();
    await page.waitForTimeout(4500);
    await shot(page, 'activity', { scrolled: true });
  });
});
