import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'my new long passphrase';

describe('the account by mail, in Chromium', () => {
  // No SMTP_URL: the server writes each mail to DATA_DIR/outbox, as `npm start` does.
  const e = useE2E();

  /** The newest mail in the server's outbox to `to` with this subject, waiting for it; its link. */
  async function linkInOutbox(to: string, subject: string): Promise<URL> {
    const dir = path.join(e().dataDir, 'outbox');
    const deadline = Date.now() + 10_000;
    for (;;) {
      const files = (() => {
        try {
          return readdirSync(dir).sort().reverse();
        } catch {
          return [];
        }
      })();
      for (const f of files) {
        const mail = await simpleParser(readFileSync(path.join(dir, f)));
        const recipients = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address));
        if (mail.subject === subject && recipients.includes(to)) {
          const m = /https?:\/\/\S+/.exec(mail.text ?? '');
          if (!m) throw new Error(`no link in the mail '${subject}'`);
          return new URL(m[0]);
        }
      }
      if (Date.now() > deadline) throw new Error(`no mail '${subject}' to ${to} in ${dir}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  /** Opens a mailed link on this server (the mail names PUBLIC_URL; the test server has its own port). */
  const open = (page: Page, link: URL) => page.goto(`${link.pathname}${link.search}${link.hash}`);

  it('confirms the address from the sign-up mail', async () => {
    const address = `confirm-${Date.now()}@example.com`;
    const { context, page } = await e().newPage();
    await signUp(page, address);
    await open(page, await linkInOutbox(address, 'Confirm your email'));
    await page.getByRole('heading', { name: 'Email confirmed' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account-email-confirmed');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('auth_user'))) ?? '{}').emailVerified).toBe(true);
    await context.close();
  });

  it('forgot password: mail, link, new password, then signs in with it', async () => {
    const address = `reset-${Date.now()}@example.com`;
    // One phone signed up (and stays signed in); the person forgot the password on another.
    const phone = await e().newPage();
    await signUp(phone.page, address);

    const { context, page } = await e().newPage();
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account-forgot-sent');

    const link = await linkInOutbox(address, 'Reset your password');
    expect(link.pathname).toBe('/reset-password');
    await open(page, link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again', { exact: true }).fill(NEW_PASSWORD);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account-reset-form');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await screenshot(page, 'account-reset-done');

    // The link worked once (a fresh load: the same address again would not reload the page).
    await page.goto('about:blank');
    await open(page, link);
    await page.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await page.getByLabel('New password again', { exact: true }).fill('yet another passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This link has already been used.');

    // The old password no longer signs in; the new one does.
    await page.goto('/auth?mode=signin');
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Incorrect email or password.');
    await screenshot(page, 'account-signin-refused');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
    await page.waitForURL('**/onboarding');

    // The phone's session ended with the reset: opening the app there signs it out.
    await phone.page.goto('/onboarding');
    await phone.page.waitForURL((u) => u.pathname === '/');
    await phone.context.close();
    await context.close();
  });

  it('changes the email from settings once the new address confirms it', async () => {
    const address = `before-${Date.now()}@example.com`;
    const next = `after-${Date.now()}@example.com`;
    const { context, page } = await e().newPage();
    await signUp(page, address);
    await onboard(page);
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL('**/grid');
    await page.goto('/settings');
    const account = page.getByRole('region', { name: 'Account' });
    await account.getByRole('button', { name: 'Change email' }).click();
    const sheet = page.getByRole('dialog', { name: 'Change email' });
    await sheet.getByLabel('New email').fill(next);
    await sheet.getByLabel('Your password').fill(PASSWORD);
    await screenshot(page, 'account-change-email-sheet');
    await sheet.getByRole('button', { name: 'Send link' }).click();
    await account.getByText(next).waitFor();
    await account.getByText(address).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'account-settings-pending-email');

    await open(page, await linkInOutbox(next, 'Confirm your new email'));
    await page.getByRole('heading', { name: 'Email changed' }).waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL('**/settings');
    await account.getByText(next).waitFor();
    expect(await account.getByText(address).count()).toBe(0);
    await context.close();
  });
});
