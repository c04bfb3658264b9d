import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import sharp from 'sharp';

/** Steps shared by the journeys: sign up, onboard, join with a location, match. */
let counter = 0;
const email = () => `e2e${++counter}-${Date.now()}@example.com`;
export const PASSWORD = 'a long enough password';

/** A real JPEG with EXIF (camera make and GPS position) to upload, written like a phone photo would be. */
export async function photoFile(): Promise<string> {
  mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });
  const file = path.join(import.meta.dirname, 'screenshots', 'upload.jpg');
  await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#4a7bd0' } })
    .composite([
      { input: Buffer.from('<svg width="900" height="1200"><circle cx="450" cy="500" r="260" fill="#f2c9a0"/></svg>') },
    ])
    .jpeg({ quality: 85 })
    // A camera and where it stood (GPS IFD): the server must strip both.
    .withExif({
      IFD0: { Make: 'E2ECam', Model: 'Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 45/1 4094/100', GPSLongitudeRef: 'W', GPSLongitude: '122/1 26/1 536/100' },
    })
    .toFile(file);
  return file;
}

export async function signUp(page: Page, address = email()): Promise<void> {
  await page.goto('/');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.waitForURL('**/auth**');
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up', exact: true }).last().click();
  await page.waitForURL('**/onboarding');
}

export async function onboard(page: Page, name = 'Sam'): Promise<void> {
  await page.getByLabel('Display name', { exact: true }).fill(name);
  await page.getByLabel('Age', { exact: true }).fill('29');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Bio', { exact: true }).fill('Coffee, climbing and bad puns.');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.locator('input[type="file"]').setInputFiles(await photoFile());
  await page.getByRole('list', { name: 'Your photos' }).locator('img').first().waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Feet', exact: true }).fill('5');
  await page.getByRole('textbox', { name: 'Inches', exact: true }).fill('11');
  await page.getByLabel('Position', { exact: true }).selectOption('Vers');
  await page.getByRole('button', { name: 'Next' }).click();
  const prompts = page.locator('button[aria-pressed]');
  await prompts.first().waitFor();
  await prompts.nth(0).click();
  await prompts.nth(1).click();
  const answers = page.locator('textarea');
  await answers.nth(0).fill('Long walks and longer talks.');
  await answers.nth(1).fill('Someone who laughs at my jokes.');
}

/**
 * WCAG 2 A/AA violations on the page, as 'rule: targets'. Entering and leaving toasts finish
 * their fade first: axe reads mid-fade colours as low contrast. Only the toasts' own
 * animations are waited for, not their progress bars.
 */
export async function axeViolations(page: Page, exclude?: string): Promise<string[]> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (a) =>
            a.playState !== 'running' ||
            !(a.effect instanceof KeyframeEffect && a.effect.target?.closest('[aria-label="Notifications"]')) ||
            ('animationName' in a && a.animationName === 'fmk-toast-progress'),
        ),
    undefined,
    { timeout: 5000 },
  );
  // Toasts come and go on timers (a leaving one sits at opacity 0 for a moment): left out here.
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).exclude('[aria-label="Notifications"]');
  if (exclude) builder = builder.exclude(exclude);
  const r = await builder.analyze();
  return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** San Francisco, where the demo users live; two men a street apart. */
export const CASTRO = { latitude: 37.7609, longitude: -122.435 };
export const NEARBY = { latitude: 37.7612, longitude: -122.4346 };
/** A browser context that shares this position when asked. */
export const located = (geolocation: { latitude: number; longitude: number }) => ({
  permissions: ['geolocation'],
  geolocation,
});

/** Signs up, onboards as `name`, lands on the grid and shares the context's location. */
export async function join(page: Page, name: string): Promise<void> {
  await signUp(page);
  await onboard(page, name);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL('**/grid');
  await page.getByRole('button', { name: 'Share my location' }).click();
  await page.getByRole('button', { name: 'Share my location' }).waitFor({ state: 'detached' });
}

/**
 * Two men who joined (aged 29) pick each other: A fucks B from the grid, B fucks A back from
 * his likes and sees the match toast.
 */
export async function matchEachOther(a: Page, aName: string, b: Page, bName: string): Promise<void> {
  await a.goto('/grid');
  await a.getByRole('link', { name: new RegExp(`^${bName}, 29`) }).click();
  await a.getByRole('button', { name: `Fuck ${bName}` }).click();
  await a.waitForURL('**/grid');
  await b.goto('/likes');
  await b.getByRole('link', { name: new RegExp(`^${aName}, 29: fuck`) }).click();
  await b.getByRole('button', { name: `Fuck ${aName}` }).click();
  await b.locator('[data-toast-type="match"]').getByText("It's a match!").waitFor({ timeout: 10_000 });
}

/**
 * A staff member's first sign-in to the admin area: password, then setting up his authenticator
 * (the TOTP secret shown once, a code from it, the recovery codes acknowledged); ends on the dashboard.
 */
export async function staffFirstSignIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Authenticator code').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.waitForURL('**/admin/dashboard');
}
