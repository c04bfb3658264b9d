import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the landing page in Chromium', () => {
  const e = useE2E();

  // Phones from the smallest in use to a large one.
  for (const viewport of [
    { width: 320, height: 568 },
    { width: 360, height: 640 },
    { width: 390, height: 844 },
  ]) {
    it(`shows the install banner without covering the brand, Sign up or Sign in (${viewport.width}x${viewport.height})`, async () => {
      const { context, page } = await e().newPage({ viewport });
      await page.goto('/');
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
      // Chromium's install offer, as it fires when the app is installable.
      await page.evaluate(() => {
        const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
          prompt: async () => undefined,
          userChoice: Promise.resolve({ outcome: 'dismissed' as const }),
        });
        window.dispatchEvent(offer);
      });
      const banner = page.getByRole('complementary', { name: 'Install the app' });
      await banner.waitFor();
      const bannerBox = (await banner.locator('> div').boundingBox())!;
      for (const target of [
        page.getByRole('link', { name: 'Sign in' }),
        page.getByRole('link', { name: 'Sign up' }),
        page.getByRole('heading', { level: 1 }),
      ]) {
        const box = (await target.boundingBox())!;
        expect(overlaps(bannerBox, box), `${await target.textContent()} is covered`).toBe(false);
      }
      await page.screenshot({ path: path.join(import.meta.dirname, 'screenshots', `landing-install-${viewport.width}.png`) });
      // Sign in still works with the banner up.
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL('**/auth?mode=signin');
      await context.close();
    });
  }
});
