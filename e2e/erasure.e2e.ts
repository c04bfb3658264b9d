import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

const SHOTS = path.join(import.meta.dirname, 'screenshots');
mkdirSync(SHOTS, { recursive: true });
const PASSWORD = 'a long enough password';

/** A finished profile on its settings screen. */
async function member(page: Page, address: string): Promise<void> {
  await signUp(page, address);
  await onboard(page);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL('**/grid');
  await page.goto('/settings');
}

describe('the data rights, in Chromium', () => {
  const e = useE2E();

  it('download my data: the archive is prepared, then saved as a zip holding the profile', async () => {
    const address = `export-${Date.now()}@example.com`;
    const { context, page } = await e().newPage({ acceptDownloads: true });
    await member(page, address);
    const account = page.getByRole('region', { name: 'Account' });
    await account.getByRole('button', { name: 'Prepare my data' }).click();
    const download = account.getByRole('button', { name: 'Download zip' });
    await download.waitFor({ timeout: 20_000 });
    await account.getByText(/then it is deleted/).scrollIntoViewIfNeeded();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'erasure-export-ready');

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^fmk-data-\d{4}-\d\d-\d\d\.zip$/);
    const saved = path.join(SHOTS, 'export.zip');
    await file.saveAs(saved);
    const zip = unzipSync(new Uint8Array(readFileSync(saved)));
    const profile = JSON.parse(strFromU8(zip['profile.json']!));
    expect(profile).toMatchObject({ email: address, display_name: 'Sam' });
    expect(Object.keys(zip).some((name) => /^photos\/.+\.webp$/.test(name))).toBe(true);
    await context.close();
  });

  it('delete account: signed out to the landing page, and the credentials sign in no more', async () => {
    const address = `erase-${Date.now()}@example.com`;
    const { context, page } = await e().newPage();
    await member(page, address);
    await page.getByRole('region', { name: 'Account' }).getByRole('button', { name: 'Delete account' }).click();
    const sheet = page.getByRole('dialog', { name: 'Delete account' });
    await sheet.getByLabel('Account password').fill(PASSWORD);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'erasure-delete-sheet');
    await sheet.getByRole('button', { name: 'Delete my account' }).click();

    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('Your account and your data were deleted. Take care.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'erasure-deleted');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

    await page.goto('/auth?mode=signin');
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).last().click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Incorrect email or password.');
    await context.close();
  });
});
