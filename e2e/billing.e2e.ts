import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AUTH_STORAGE_KEYS, DAY } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

describe('paying for Premium with the sandbox, in Chromium', () => {
  // TEST_CLOCK: POST /api/v1/test/clock moves the server's clock and runs due renewals.
  // The sandbox confirms each payment by a signed webhook 300 ms later, as Square does.
  const e = useE2E({ TEST_CLOCK: 'true', SANDBOX_WEBHOOK_DELAY_MS: '300' });

  it('free → checkout with a test card → Premium live → cancel at period end → still Premium → the period passes → Free', async () => {
    const { context, page } = await e().newPage();
    const address = `billing-${Date.now()}@example.com`;
    await signUp(page, address);
    await onboard(page);
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL('**/grid');
    // A member who is not in the beta: no lifetime Premium.
    await e()
      .database.db.updateTable('users')
      .set({ has_lifetime_premium: false, is_beta_user: false, subscription_tier: 'free' })
      .where('email', '=', address)
      .execute();
    await page.goto('/settings/premium');
    await page.getByText('Your plan: Free').waitFor();

    await page.getByRole('link', { name: 'Choose Premium' }).click();
    await page.waitForURL('**/settings/payment?plan=premium-monthly');
    await page.getByText('Checkout: Premium').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'billing-checkout');
    // The page is not reloaded from here on: what changes, changes live.
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/payments/')) sent.push(r.postData() ?? '');
    });
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay $9.99' }).click();
    await page.getByText("You're on Premium").first().waitFor();
    await page.getByText(/Renews on .* for \$9\.99\./).waitFor();
    expect(sent.join('')).toContain('cnon:card-nonce-ok');
    expect(sent.join('')).not.toContain('4111');
    await page.getByText('VISA •••• 1111').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'billing-premium');

    // Premium unlocked without a reload: the plans screen reads the session's new tier.
    await page.getByRole('link', { name: 'Compare plans' }).click();
    await page.getByText('Your plan: Premium').waitFor();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await page.goBack();

    await page.getByRole('button', { name: 'Cancel at the end of this period' }).click();
    await page.getByText(/Canceled: Premium stays yours until/).waitFor();
    await page.getByRole('link', { name: 'Compare plans' }).click();
    await page.getByText('Your plan: Premium').waitFor();
    await screenshot(page, 'billing-canceled-at-period-end');

    // The period passes: the renewal job ends the subscription and the tier drops.
    const moved = await page.evaluate(async (ms) => {
      const r = await fetch('/api/v1/test/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceMs: ms }),
      });
      return r.json();
    }, 31 * DAY);
    expect(moved.renewed).toBeGreaterThanOrEqual(1);
    // A month later the access token has expired too. The browser's clock has not moved, so
    // the app opens on the stored session until the server refuses it and signs him out to the
    // landing page; only then is the sign-in form his next screen (not a race with that 401).
    await page.goto('/grid');
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.evaluate((k) => localStorage.getItem(k), AUTH_STORAGE_KEYS.token)).toBeNull();
    // He signs in again, and the plan is Free.
    await page.goto('/auth?mode=signin');
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
    await page.waitForURL((u) => u.pathname !== '/auth');
    await page.goto('/settings/premium');
    await page.getByText('Your plan: Free').waitFor();
    await page.goto('/settings/payment');
    await page.getByText('No subscription, so nothing renews and nothing is charged.').waitFor();
    await screenshot(page, 'billing-free-again');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
