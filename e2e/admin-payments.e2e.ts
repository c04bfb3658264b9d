import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AuthResult } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, signUp, staffFirstSignIn } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });
const PASSWORD = 'a long enough password';

describe('admin payments and a refund, in Chromium', () => {
  const e = useE2E({ SANDBOX_WEBHOOK_DELAY_MS: '300' });

  it('a member pays with the sandbox test card, the owner refunds part of it, and the member sees the refund', async () => {
    // The owner, made as `npm run admin -- create-owner` makes him.
    const ownerEmail = `owner-pay-${Date.now()}@example.com`;
    const signed = await e().app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: ownerEmail, password: PASSWORD },
    });
    expect(signed.statusCode, signed.body).toBe(201);
    const owner = signed.json() as AuthResult;
    await e().database.db.insertInto('admin_users').values({ user_id: owner.user.uid, role: 'owner', is_active: true }).execute();

    // A member on his phone buys Premium with Square's sandbox test card.
    const memberEmail = `payer-${Date.now()}@example.com`;
    const { page: member } = await e().newPage();
    await signUp(member, memberEmail);
    await onboard(member, 'Jonah');
    await member.getByRole('button', { name: 'Finish' }).click();
    await member.waitForURL('**/grid');
    await e()
      .database.db.updateTable('users')
      .set({ has_lifetime_premium: false, is_beta_user: false, subscription_tier: 'free' })
      .where('email', '=', memberEmail)
      .execute();
    await member.goto('/settings/payment?plan=premium-monthly');
    await member.getByLabel('Card number').fill('4111 1111 1111 1111');
    await member.getByLabel('Expiry (MM/YY)').fill('12/39');
    await member.getByLabel('Security code').fill('123');
    await member.getByRole('button', { name: 'Pay $9.99' }).click();
    await member.getByText(/Renews on .* for \$9\.99\./).waitFor();
    const anon = (
      await e().database.db.selectFrom('users').select('anonymous_id').where('email', '=', memberEmail).executeTakeFirstOrThrow()
    ).anonymous_id!;

    // The owner signs in on a laptop, finds the payment by the member's anonymous id and opens it.
    const { page } = await e().newPage({ viewport: { width: 1280, height: 800 } });
    await staffFirstSignIn(page, ownerEmail);
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill(anon);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row').filter({ hasText: anon });
    await row.getByText('Premium, first month').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-payments-1280');

    await row.getByRole('button', { name: /Open the \$9\.99 payment/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Payment' });
    await sheet.getByText(/ends his Premium subscription now/).waitFor();
    await sheet.getByLabel('Amount to refund (USD)').fill('4.00');
    await sheet.getByLabel('Reason').fill('The grid did not load for two days');
    await sheet.getByRole('button', { name: 'Refund $4.00' }).click();
    await sheet.getByRole('status').filter({ hasText: 'Refunded $4.00.' }).waitFor();
    await sheet.getByText('The grid did not load for two days').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-payments-refund-1280');
    await sheet.getByRole('button', { name: 'Close' }).click();
    await row.getByText('Partly refunded').waitFor();

    // The same screen on a phone: rows become cards, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'admin-payments-390');

    // The member sees the refund in his payment history; his plan carries on (a partial refund).
    await member.goto('/settings/payment');
    const history = member.getByRole('list', { name: 'Payments' });
    await history.getByText('Refund: Premium').waitFor();
    await history.getByText('−$4.00').waitFor();
    await member.getByText(/Renews on .* for \$9\.99\./).waitFor();
    expect(await axeViolations(member)).toEqual([]);
    await screenshot(member, 'billing-refund-in-history');
  }, 180_000);
});
