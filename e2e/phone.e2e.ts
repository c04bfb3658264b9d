import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

/** Two men near each other, so each is in the other's grid. */
const nearby = { permissions: ['geolocation'], geolocation: { latitude: 37.7609, longitude: -122.435 } };

async function member(page: Page, name: string): Promise<string> {
  await signUp(page);
  await onboard(page, name);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL('**/grid');
  await page.getByRole('button', { name: 'Share my location' }).click();
  await page.getByRole('button', { name: 'Share my location' }).waitFor({ state: 'detached' });
  return (JSON.parse((await page.evaluate(() => localStorage.getItem('auth_user'))) ?? '{}') as { uid: string }).uid;
}

describe('verifying a phone number, in Chromium', () => {
  // No Twilio variables: the server writes each text to DATA_DIR/sms-outbox, as `npm start` does.
  const e = useE2E();

  /** The code of the newest text to `to` in the server's SMS outbox, waiting for it. */
  async function codeInOutbox(to: string): Promise<string> {
    const dir = path.join(e().dataDir, 'sms-outbox');
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
        const text = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to: string; body: string };
        const code = /^(\d{6}) is your verification code/.exec(text.body)?.[1];
        if (text.to === to && code) return code;
      }
      if (Date.now() > deadline) throw new Error(`no text to ${to} in ${dir}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('adds a number, types the texted code, and shows the badge on his profile and in the grid of another man', async () => {
    const a = await e().newPage(nearby);
    const uid = await member(a.page, 'Verified Val');
    await a.page.goto('/settings');
    const account = a.page.getByRole('region', { name: 'Account' });
    await account.getByLabel('Mobile number').waitFor();
    expect(await axeViolations(a.page)).toEqual([]);

    // A number without its country code is refused in place, in words that say how to write it.
    await account.getByLabel('Mobile number').fill('415 555 0123');
    await account.getByRole('button', { name: 'Text me a code' }).click();
    await account.getByText('Enter your number in international format').waitFor();

    await account.getByLabel('Mobile number').fill('+1 415 555 0123');
    await account.getByRole('button', { name: 'Text me a code' }).click();
    const code = account.getByLabel('6-digit code');
    await code.waitFor();
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await account.getByRole('button', { name: /^Resend code in \d+ s$/ }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await account.scrollIntoViewIfNeeded();
    await screenshot(a.page, 'phone-code');

    // A wrong code first: the server's words, and the tries left.
    const right = await codeInOutbox('+14155550123');
    await code.fill(right === '000000' ? '111111' : '000000');
    await account.getByRole('button', { name: 'Verify' }).click();
    await account.getByText("That code isn't right. 4 tries left.").waitFor();
    await code.fill(right);
    await account.getByRole('button', { name: 'Verify' }).click();
    await account.getByText('Verified', { exact: true }).waitFor();
    await account.getByRole('button', { name: 'Remove number' }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'phone-verified');

    await a.page.goto(`/profile/${uid}`);
    const badge = a.page.getByRole('heading', { level: 1 }).getByRole('img', { name: 'Verified: confirmed his phone number' });
    await badge.waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'phone-own-profile-badge');

    // Another man nearby sees the badge on his grid cell, and his profile, never the number.
    const b = await e().newPage(nearby);
    await member(b.page, 'Other Oli');
    const cell = b.page.getByRole('link', { name: /^Verified Val, \d+, verified,/ });
    await cell.waitFor();
    expect(await b.page.content()).not.toContain('4155550123');
    expect(await axeViolations(b.page)).toEqual([]);
    await screenshot(b.page, 'phone-grid-badge');
    await cell.click();
    await b.page.waitForURL(`**/profile/${uid}`);
    await b.page.getByRole('img', { name: 'Verified: confirmed his phone number' }).waitFor();
    expect(await b.page.content()).not.toContain('4155550123');
    await a.context.close();
    await b.context.close();
  });
});
