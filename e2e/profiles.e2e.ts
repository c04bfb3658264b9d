import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

async function signUpAndOnboard(page: Page): Promise<string> {
  await signUp(page);
  await onboard(page);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL('**/grid');
  const user = JSON.parse((await page.evaluate(() => localStorage.getItem('auth_user'))) ?? '{}') as { uid: string };
  return user.uid;
}

/** Two users near each other, so that each is in the other's clickable grid. */
const nearby = { permissions: ['geolocation'], geolocation: { latitude: 37.7609, longitude: -122.435 } };
async function shareLocation(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Share my location' }).click();
  await page.getByRole('button', { name: 'Share my location' }).waitFor({ state: 'detached' });
}

async function seriousA11yViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('profiles, app mode and profile mode in Chromium', () => {
  const e = useE2E();

  it("shows A's edited profile to another signed-in user", async () => {
    const a = await e().newPage(nearby);
    const uidA = await signUpAndOnboard(a.page);
    await shareLocation(a.page);
    await a.page.goto(`/profile/${uidA}`);
    await a.page.waitForURL(`**/profile/${uidA}`);
    await a.page.getByRole('link', { name: /Edit profile/ }).click();
    await a.page.waitForURL('**/profile/edit');
    await a.page.getByLabel('Bio', { exact: true }).fill('Sourdough evangelist and weekend sailor.');
    const interests = a.page.getByLabel('Interests', { exact: true });
    await interests.fill('Sailing');
    await interests.press('Enter');
    await a.page.getByRole('button', { name: 'Add Hiking' }).click();
    await a.page.getByLabel('Build', { exact: true }).selectOption('Athletic');
    await a.page.getByLabel('Right now', { exact: true }).fill('Coffee near the harbour');
    await screenshot(a.page, 'profile-edit');
    expect(await seriousA11yViolations(a.page)).toEqual([]);
    await a.page.getByRole('button', { name: 'Save' }).click();
    await a.page.getByText('Profile saved').waitFor();
    await a.context.close();

    const b = await e().newPage(nearby);
    await signUpAndOnboard(b.page);
    await shareLocation(b.page);
    await b.page.goto(`/profile/${uidA}`);
    await b.page.getByRole('heading', { level: 1, name: 'Sam, 29' }).waitFor();
    await b.page.getByText('Sourdough evangelist and weekend sailor.').waitFor();
    const dating = b.page.getByRole('region', { name: 'Dating' });
    expect(await dating.getByRole('list', { name: 'Interests' }).textContent()).toBe('SailingHiking');
    expect(await b.page.getByRole('link', { name: /Edit profile/ }).count()).toBe(0);
    // B likes one of A's prompt answers.
    const like = dating.getByRole('button', { name: /Like the answer/ }).first();
    await like.click();
    await expect.poll(() => like.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => like.textContent()).toBe('1');
    await b.page.waitForLoadState('networkidle');
    await b.page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(b.page, 'profile-view');
    expect(await seriousA11yViolations(b.page)).toEqual([]);
    await b.page.goto('/profile/no-such-user');
    await b.page.getByRole('heading', { name: "This profile isn't available" }).waitFor();
    await b.context.close();
  });

  it('Marry only shows #MK and no Cruise tab', async () => {
    const { context, page } = await e().newPage();
    await signUpAndOnboard(page);
    await page.goto('/settings');
    await page.getByRole('radio', { name: /Marry only/ }).check();
    await page.getByRole('link', { name: '#MK home' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Cruise' }).count()).toBe(0);
    expect(await page.title()).toBe('#MK');
    await screenshot(page, 'settings-marry');
    // The choice is on the user record: a reload keeps it.
    await page.reload();
    await page.getByRole('link', { name: '#MK home' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Cruise' }).count()).toBe(0);
    await context.close();
  });

  it('a manual mode switch shows its toast', async () => {
    const { context, page } = await e().newPage();
    await signUpAndOnboard(page);
    await page.getByRole('button', { name: 'Hookup' }).click();
    await page.getByText('Switched to Hookup Mode').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Hookup' }).getAttribute('aria-pressed')).toBe('true');
    await page.waitForTimeout(400); // let the toast finish sliding in
    await screenshot(page, 'mode-switch-toast');
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Hookup' }).getAttribute('aria-pressed')).toBe('true');
    await context.close();
  });
});
