import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, signUp } from './flows.ts';
import { useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

/** Two men a few streets apart in Berlin. */
const KREUZBERG = { latitude: 52.4986, longitude: 13.4031 };
const NEARBY = { latitude: 52.5009, longitude: 13.4112 };
const located = (geolocation: { latitude: number; longitude: number }) => ({ permissions: ['geolocation'], geolocation });

/** Uncaught errors in the page fail the journey. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

async function join(page: Page, name: string): Promise<void> {
  await signUp(page);
  await onboard(page, name);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL('**/grid');
}

/** The screen as a phone shows it. */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(import.meta.dirname, 'screenshots', `${name}.png`) });
}

async function axe(page: Page): Promise<void> {
  expect(await axeViolations(page, '.leaflet-container')).toEqual([]);
}

describe('cruise in Chromium', () => {
  const e = useE2E();

  it('A starts a session and sees the countdown, B sees A nearby, A ends it and sees the counters', async () => {
    const a = await e().newPage(located(KREUZBERG));
    const b = await e().newPage(located(NEARBY));
    const errors = [...[a.page, b.page].map(watchErrors)];
    await join(a.page, 'Alex');
    await join(b.page, 'Ben');

    // A opens Cruise from the bottom navigation; the location is asked for on start.
    await a.page.getByRole('link', { name: 'Cruise' }).click();
    await a.page.waitForURL('**/cruise');
    await a.page.getByRole('heading', { name: 'Ready to cruise?' }).waitFor();
    await a.page.getByRole('button', { name: 'Dating', pressed: true }).waitFor();
    await shot(a.page, 'cruise-start');
    await axe(a.page);
    const started = a.page.waitForResponse((r) => r.url().endsWith('/api/v1/cruise/session') && r.request().method() === 'POST');
    await a.page.getByRole('button', { name: 'Start cruising' }).click();
    expect((await started).status()).toBe(200);
    const timer = a.page.getByRole('timer');
    await timer.waitFor();
    expect(await timer.textContent()).toMatch(/^(30:00|29:[0-5]\d)$/);
    const first = await timer.textContent();
    await a.page.waitForFunction((t) => document.querySelector('[role="timer"]')?.textContent !== t, first);
    // Cruising puts him in Hookup mode.
    await a.page.getByText('Switched to Hookup Mode').first().waitFor();
    await a.page.getByRole('button', { name: 'Hookup', pressed: true }).waitFor();
    await shot(a.page, 'cruise-live');
    await axe(a.page);

    // B shares his location and sees A in his nearby list, with a bucketed distance.
    await b.page.goto('/cruise');
    await b.page.getByRole('button', { name: 'Share my location' }).click();
    const alex = b.page.getByRole('link', { name: /^Alex, 29, < 1 (mi|km) away/ });
    await alex.waitFor();
    await b.page.getByText('1 cruising within 5 km').waitFor();
    await shot(b.page, 'cruise-nearby-list');
    await axe(b.page);

    // The map: markers on a plain background (no tile server configured, none reachable).
    await b.page.getByRole('button', { name: 'Map', exact: true }).click();
    const map = b.page.getByRole('region', { name: 'Map of cruisers and spots near you' });
    await map.waitFor();
    await b.page.locator('.leaflet-marker-icon').first().waitFor();
    await b.page.getByText('Street map unavailable: areas shown').waitFor();
    await map.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shot(b.page, 'cruise-nearby-map');

    // A ends the session: the counters count it, and B's list empties.
    const ended = a.page.waitForResponse((r) => r.url().endsWith('/api/v1/cruise/session/end'));
    await a.page.getByRole('button', { name: 'End session' }).click();
    expect((await ended).status()).toBe(200);
    // Beta users are Premium: one session a day, so the next one is tomorrow.
    await a.page.getByRole('heading', { name: "You've cruised today" }).waitFor();
    const counters = a.page.locator('dl[aria-label="Your cruise counters"]');
    // Each figure is read with its label (dt): one session today, its minutes, one all time.
    const text = async () => (await counters.textContent()) ?? '';
    await expect.poll(text).toMatch(/Today: sessions\s*1\D/);
    expect(await text()).toMatch(/Today: minutes\s*[01]\D/);
    expect(await text()).toMatch(/All time: sessions\s*1\D/);
    await shot(a.page, 'cruise-ended-counters');
    await axe(a.page);

    await b.page.getByRole('button', { name: 'List', exact: true }).click();
    await b.page.reload();
    await b.page.getByRole('heading', { name: 'No one is cruising near you' }).waitFor();
    expect(errors.flat()).toEqual([]);
  });

  it('suggests a spot and creates, comments on and cancels an event', async () => {
    const { page } = await e().newPage(located(KREUZBERG));
    const errors = watchErrors(page);
    await join(page, 'Chris');
    await page.goto('/cruise');
    await page.getByRole('tab', { name: 'Spots' }).click();
    await page.getByRole('heading', { name: 'No spots near you yet' }).waitFor();
    await page.getByRole('button', { name: 'Share my location' }).click();
    await page.getByText('Know a good place?', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Suggest a spot' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Hasenheide north gate');
    await page.getByLabel('Kind').selectOption('park');
    await page.getByLabel('Description').fill('Left of the gate, after dark.');
    await shot(page, 'cruise-spot-form');
    await page.getByRole('button', { name: 'Send for review' }).click();
    await page.getByText('Waiting for review').waitFor();
    await shot(page, 'cruise-spots');
    await axe(page);

    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'No events near you' }).waitFor();
    await page.getByRole('button', { name: 'Create an event' }).click();
    await page.getByLabel('Title').fill('Friday drinks');
    await page.getByLabel('Place name').fill('Bar on the corner');
    await page.getByLabel('Description').fill('First round is on me.');
    await shot(page, 'cruise-event-form');
    await page.getByRole('button', { name: 'Create event' }).click();
    const sheet = page.getByRole('dialog', { name: 'Friday drinks' });
    await sheet.getByText('Hosted by you · 1 going').waitFor();
    await sheet.getByLabel('Add a comment').fill('Who is in?');
    await sheet.getByRole('button', { name: 'Post' }).click();
    await sheet.getByText('Who is in?').waitFor();
    await shot(page, 'cruise-event-detail');
    await sheet.getByRole('button', { name: 'Cancel event' }).click();
    await sheet.getByText('Cancelled').first().waitFor();
    await sheet.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('list', { name: 'Events near you' }).getByText('Cancelled').waitFor();
    await shot(page, 'cruise-events');
    expect(errors).toEqual([]);
  });
});
