import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AUTH_STORAGE_KEYS, type AuthResult } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

/** Every settings route of the spec (section 2), with the heading its page shows. */
const ROUTES = [
  ['/settings', 'Settings'],
  ['/settings/notifications', 'Notifications'],
  ['/settings/privacy', 'Privacy'],
  ['/settings/safety', 'Safety settings'],
  ['/settings/blocked-users', 'Blocked users'],
  ['/settings/premium', 'Premium'],
  ['/settings/payment', 'Payment'],
  ['/settings/bugs-feedback', 'Bugs and feedback'],
  ['/settings/help', 'Help'],
] as const;

describe('every settings route, in Chromium', () => {
  const e = useE2E();

  it('renders each with the signed-in member’s real data and passes axe', async () => {
    const { context, page } = await e().newPage();
    await signUp(page);
    await onboard(page, 'Rafa');
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL('**/grid');

    // Real data behind the screens: a man he blocked, through the same API the block sheet uses.
    const other = (
      await e().app.inject({
        method: 'POST',
        url: '/api/v1/auth/signup',
        payload: { email: `blocked-${Date.now()}@example.com`, password: 'a long enough password' },
      })
    ).json() as AuthResult;
    await e()
      .database.db.updateTable('users')
      .set({ display_name: 'Nico', onboarding_complete: true })
      .where('id', '=', other.user.uid)
      .execute();
    const token = await page.evaluate((key) => localStorage.getItem(key), AUTH_STORAGE_KEYS.token);
    const blocked = await e().app.inject({
      method: 'POST',
      url: `/api/v1/users/${other.user.uid}/block`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(blocked.statusCode).toBeLessThan(300);

    for (const [route, heading] of ROUTES) {
      await page.goto(route);
      await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
      // Wait for the route's data (no spinner in sight) before judging it.
      await page.waitForFunction(
        () => ![...document.querySelectorAll('.animate-spin')].some((s) => s.checkVisibility()),
        undefined,
        {
          timeout: 10_000,
        },
      );
      expect(await axeViolations(page), route).toEqual([]);
      await screenshot(page, `settings-route-${route.split('/').pop()}`);
    }

    // The data is his: the hub names his address and device, the block list the man he blocked.
    await page.goto('/settings/blocked-users');
    await page.getByRole('list', { name: 'Blocked users' }).getByText('Nico').waitFor();
    await page.goto('/settings');
    await page.getByRole('heading', { name: "Where you're signed in" }).waitFor();
    await page.getByText('Chrome on Linux').waitFor();

    // Privacy saves to the server; offline, it is kept on the device and synced when back.
    const mine = async () =>
      (
        await e().app.inject({ method: 'GET', url: '/api/v1/me/settings', headers: { authorization: `Bearer ${token}` } })
      ).json() as { privacy: { shareDistance: boolean; showReadReceipts: boolean } };
    await page.goto('/settings/privacy');
    await page.getByRole('switch', { name: /^Share my distance/ }).click();
    await expect.poll(async () => (await mine()).privacy.shareDistance).toBe(false);
    await context.setOffline(true);
    await page.getByRole('switch', { name: /^Send read receipts/ }).click();
    await page.getByText('Saved on this device, will sync').waitFor();
    expect((await mine()).privacy.showReadReceipts).toBe(true);
    await screenshot(page, 'settings-privacy-saved-on-device');
    await context.setOffline(false);
    await page.getByText('Saved on this device, will sync').waitFor({ state: 'detached', timeout: 10_000 });
    expect((await mine()).privacy.showReadReceipts).toBe(false);
    expect(await page.getByRole('switch', { name: /^Send read receipts/ }).isChecked()).toBe(false);
    await context.close();
  });
});
