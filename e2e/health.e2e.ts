import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { onboard, photoFile, signUp } from './flows.ts';
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

/** A call to the API as the page's signed-in user (its stored token): status and JSON body. */
async function apiAs(page: Page, method: string, url: string, body?: object, withToken = true) {
  return page.evaluate(
    async ({ method, url, body, withToken }) => {
      const token = localStorage.getItem('auth_token');
      const headers: Record<string, string> = body ? { 'Content-Type': 'application/json' } : {};
      if (withToken && token) headers.Authorization = `Bearer ${token}`;
      const res = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : null });
      const text = await res.text();
      return { status: res.status, json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null };
    },
    { method, url, body, withToken },
  );
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

  it('a contact linked to a match, with a private photo; an activity entry and a screening edited', async () => {
    const a = await e().newPage({ timezoneId: TIME_ZONE });
    const b = await e().newPage({ timezoneId: TIME_ZONE });
    await join(a.page, 'Nico');
    await join(b.page, 'Tomas');

    // They pick each other (through the API; the game's own journey is in game.e2e.ts).
    const uid = async (page: Page) => (await apiAs(page, 'GET', '/api/v1/me')).json.uid as string;
    const [aId, bId] = [await uid(a.page), await uid(b.page)];
    const pick = (page: Page, targetId: string) =>
      apiAs(page, 'POST', '/api/v1/selections', { targetId, action: 'fuck', clientId: `e2e-${targetId}` });
    expect((await pick(a.page, bId)).status).toBe(200);
    expect((await pick(b.page, aId)).json.match).not.toBeNull();

    // A adds him as a contact, linked to his FMK profile.
    const page = a.page;
    await page.goto('/activity');
    const contacts = page.getByRole('region', { name: 'Contacts' });
    await contacts.getByRole('button', { name: 'Add' }).click();
    const add = page.getByRole('dialog', { name: 'Add contact' });
    await add.getByLabel('Name', { exact: true }).fill('Tomas');
    await add.getByLabel('Age', { exact: true }).fill('17');
    await add.getByLabel('FMK profile (optional)').selectOption({ label: 'Tomas' });
    await add.getByRole('button', { name: 'Save contact' }).click();
    await add.getByRole('alert').getByText('Contacts must be 18 or older.').waitFor();
    await add.getByLabel('Age', { exact: true }).fill('31');
    await shot(page, 'activity-contact-form');
    await add.getByRole('button', { name: 'Save contact' }).click();
    await add.waitFor({ state: 'detached' });

    // His sheet shows the link; a photo uploads and shows there and in the list.
    await contacts.getByRole('button', { name: /Tomas/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Tomas' });
    await sheet.getByRole('link', { name: /On FMK\s*Tomas/ }).waitFor();
    await sheet.locator('input[type="file"]').setInputFiles(await photoFile());
    await sheet.getByRole('button', { name: 'Remove photo' }).waitFor();
    await sheet.locator('img[src^="blob:"]').waitFor();
    await shot(page, 'activity-contact-sheet');
    await sheet.getByRole('button', { name: 'Close' }).click();
    await contacts.locator('img[src^="blob:"]').waitFor();

    // The photo is his owner's only: not to the matched man himself, not without a token.
    const [contact] = (await apiAs(page, 'GET', '/api/v1/activity/contacts')).json as { photoURL: string; userId: string }[];
    expect(contact?.userId).toBe(bId);
    expect((await apiAs(page, 'GET', contact!.photoURL)).status).toBe(200);
    expect((await apiAs(b.page, 'GET', contact!.photoURL)).status).toBe(404);
    expect((await apiAs(b.page, 'GET', contact!.photoURL, undefined, false)).status).toBe(401);

    // Log with him, then open the entry and edit it in the same form.
    await page.getByRole('link', { name: 'Log', exact: true }).click();
    await page.getByRole('button', { name: 'Tomas', exact: true }).click();
    await page.getByLabel('Location').fill('Hotel');
    await page.getByText('Protected', { exact: true }).click();
    // The stars are labelled radios; clicking the visible star picks it.
    const star = (n: number) => page.locator('label').filter({ has: page.getByLabel(`${n} stars`) });
    await star(3).click();
    await page.getByRole('button', { name: 'Save entry' }).click();
    await page.waitForURL('**/activity');
    const stat = (label: string) =>
      page
        .getByRole('region', { name: 'Your stats' })
        .locator('div')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd');
    await expect.poll(() => stat('Avg rating').textContent()).toBe('3.0');
    const log = page.getByRole('region', { name: 'Log' });
    await log.locator('img[src^="blob:"]').waitFor();
    await log.getByRole('button', { name: /Tomas/ }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Edit entry' }).waitFor();
    await shot(page, 'activity-log-sheet');
    await page.getByRole('dialog').getByRole('link', { name: 'Edit entry' }).click();
    await page.waitForURL('**/activity/log?edit=*');
    await page.getByRole('heading', { name: 'Edit activity' }).waitFor();
    expect(await page.getByLabel('Location').inputValue()).toBe('Hotel');
    await page.getByLabel('Location').fill('Sauna');
    await star(5).click();
    await page.getByLabel('Duration (minutes)').fill('0');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').getByText('Use between 1 and 1440 whole minutes.').waitFor();
    await page.getByLabel('Duration (minutes)').fill('90');
    await shot(page, 'activity-log-edit', { scrolled: true });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL('**/activity');
    await expect.poll(() => stat('Avg rating').textContent()).toBe('5.0');
    expect(await stat('Favourite place').textContent()).toBe('Sauna');
    expect(await stat('Total').textContent()).toBe('1');
    await page.waitForTimeout(4500);
    await shot(page, 'activity-with-photos', { scrolled: true });

    // A screening recorded as pending, then edited when the result came back.
    await page.goto('/health');
    await page.getByRole('button', { name: 'Record' }).click();
    await page.getByRole('dialog', { name: 'Record a screening' }).getByRole('button', { name: 'Save screening' }).click();
    await page.getByText('HIV: Pending').waitFor();
    await page.getByRole('button', { name: 'Edit the screening of Today' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit screening' });
    expect(await edit.getByLabel('HIV result').inputValue()).toBe('pending');
    await edit.getByLabel('HIV result').selectOption('negative');
    await shot(page, 'health-screening-edit');
    await edit.getByRole('button', { name: 'Save screening' }).click();
    await page.getByText('HIV: Negative').waitFor();
    expect(await page.getByText('Syphilis: Pending').count()).toBe(1);
    await page.waitForTimeout(4500);
    await shot(page, 'health-screening-edited', { scrolled: true });
  });
});
