import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

describe('FMK in Chromium', () => {
  const e = useE2E();

  it('signs up, onboards with a real photo and lands on the grid', async () => {
    const { context, page } = await e().newPage();
    await signUp(page);
    await screenshot(page, 'onboarding-basics');
    await onboard(page);
    await screenshot(page, 'onboarding-prompts');
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL('**/grid');
    await page.getByRole('heading', { name: "See who's nearby" }).waitFor();
    await expect.poll(() => page.getByRole('navigation').first().isVisible()).toBe(true);
    await screenshot(page, 'grid-empty');

    // The uploaded photo was re-encoded: WebP, no EXIF.
    const user = JSON.parse((await page.evaluate(() => localStorage.getItem('auth_user'))) ?? '{}') as {
      photos: { url: string }[];
      onboardingComplete: boolean;
    };
    expect(user.onboardingComplete).toBe(true);
    const res = await page.request.get(user.photos[0]!.url);
    const meta = await sharp(Buffer.from(await res.body())).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();

    // A complete profile: / and unknown paths go to /grid; a reload keeps the session.
    await page.goto('/');
    await page.waitForURL('**/grid');
    await page.goto('/no/such/page');
    await page.waitForURL('**/grid');
    await page.goto('/onboarding');
    await page.waitForURL('**/grid');
    // Non-admins are sent to the admin sign-in.
    await page.goto('/admin/dashboard');
    await page.waitForURL('**/admin/login');
    await context.close();
  });

  it('keeps signed-out visitors on / and /auth', async () => {
    const { context, page } = await e().newPage();
    for (const p of ['/grid', '/onboarding', '/settings', '/messages/chat/someone', '/whatever']) {
      await page.goto(p);
      await page.waitForURL((u) => u.pathname === '/');
    }
    await page.goto('/auth');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/auth');
    await page.goto('/admin/users');
    await page.waitForURL('**/admin/login');
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign up' }).waitFor();
    await screenshot(page, 'landing');
    await context.close();
  });

  it('holds a signed-in user with an incomplete profile on /onboarding', async () => {
    const { context, page } = await e().newPage();
    await signUp(page);
    for (const p of ['/', '/grid', '/settings', '/profile/edit', '/nowhere']) {
      await page.goto(p);
      await page.waitForURL('**/onboarding');
    }
    await context.close();
  });

  it('signs out from settings and clears the stored session', async () => {
    const { context, page } = await e().newPage();
    await signUp(page);
    await onboard(page);
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL('**/grid');
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('auth_user')])).toEqual([
      null,
      null,
    ]);
    await page.goto('/grid');
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });

  it('shows a clear error for a wrong password and a short one', async () => {
    const { context, page } = await e().newPage();
    await page.goto('/auth?mode=signin');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Incorrect email or password.');
    await context.close();
  });

  it('shows the error screen with its two buttons', async () => {
    const { context, page } = await e().newPage();
    await page.goto('/debug/crash');
    await page.getByText('Something went wrong').waitFor();
    await page.getByText("We're sorry, but something unexpected happened. Please try again.").waitFor();
    expect(await page.getByRole('button', { name: 'Try Again' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reload Page' }).isVisible()).toBe(true);
    await screenshot(page, 'error-screen');
    await context.close();
  });

  it('is an installable PWA: manifest, icons and a service worker at the root', async () => {
    const { context, page } = await e().newPage();
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const manifest = (await (await page.request.get(href!)).json()) as {
      name: string;
      theme_color: string;
      display: string;
      start_url: string;
      icons: { src: string; sizes: string }[];
    };
    expect(manifest).toMatchObject({ name: 'FMK', theme_color: '#FF4458', display: 'standalone', start_url: '/' });
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find((i) => i.sizes === size);
      expect(icon).toBeDefined();
      expect((await page.request.get(icon!.src)).status()).toBe(200);
    }
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(new URL(scope).pathname).toBe('/');
    const sw = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
    expect(new URL(sw!).pathname).toBe('/sw.js');
    // Hashed assets are pre-compressed and cached for a year.
    const script = await page.locator('script[type="module"]').first().getAttribute('src');
    const asset = await page.request.get(script!, { headers: { 'accept-encoding': 'br' } });
    expect(asset.headers()['content-encoding']).toBe('br');
    expect(asset.headers()['cache-control']).toContain('immutable');
    await context.close();
  });

  it('has no serious accessibility violations on the landing and sign-in screens', async () => {
    const { context, page } = await e().newPage();
    for (const p of ['/', '/auth?mode=signup']) {
      await page.goto(p);
      await page.getByRole('main').waitFor();
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
    await context.close();
  });
});
