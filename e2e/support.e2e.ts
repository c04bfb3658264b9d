import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AuthResult } from '@fmk/core';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, photoFile, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

describe('support, help and plans, in Chromium', () => {
  const e = useE2E();

  async function member(page: Page): Promise<void> {
    await signUp(page);
    await onboard(page);
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL('**/grid');
  }

  /** A staff member signed in to the staff area through the API (password, then a TOTP code). */
  async function staff(): Promise<{ authorization: string }> {
    const res = await e().app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: `staff-${Date.now()}@example.com`, password: 'a long enough password' },
    });
    const body = res.json() as AuthResult;
    await e()
      .database.db.insertInto('admin_users')
      .values({ user_id: body.user.uid, role: 'moderator', is_active: true })
      .execute();
    const login = await e().app.inject({
      method: 'POST',
      url: '/api/v1/admin/login',
      payload: { email: body.user.email, password: 'a long enough password' },
    });
    const { challenge, enroll } = login.json() as { challenge: string; enroll: { secret: string } };
    const verified = await e().app.inject({
      method: 'POST',
      url: '/api/v1/admin/login/verify',
      payload: { challenge, code: await generate({ secret: enroll.secret }) },
    });
    return { authorization: `Bearer ${(verified.json() as { token: string }).token}` };
  }

  it('files a bug report with a screenshot, searches the FAQ, and talks to support', async () => {
    const { context, page } = await e().newPage();
    await member(page);

    await page.goto('/settings/bugs-feedback');
    await page.getByRole('heading', { name: 'No reports sent yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send bug report' }).click();
    await page.getByText('Choose what this is about.').waitFor();
    await page.getByLabel('What is it about?').selectOption('messages');
    await page.getByLabel('What happened?').fill('Sending a photo in chat spins forever on my phone.');
    await page.getByLabel('Add a screenshot').setInputFiles(await photoFile());
    await page.getByRole('img', { name: 'Your screenshot' }).waitFor();
    await page.getByRole('button', { name: 'Send bug report' }).click();
    const reports = page.getByRole('list', { name: 'Your reports' });
    await reports.getByText('Bug · Messages and matches').waitFor();
    await reports.getByRole('img', { name: 'Screenshot you attached' }).waitFor();
    expect(await reports.getByText('Received').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'support-bugs-feedback');

    // Stored for staff, with the version and the browser, and the screenshot without its EXIF.
    const row = await e().database.db.selectFrom('feedback_reports').selectAll().executeTakeFirstOrThrow();
    expect(row.browser).toContain('Chrome');
    expect(row.app_version).not.toBe('');
    expect(row.screenshot_id).not.toBeNull();

    await page.goto('/settings/help');
    const search = page.getByRole('searchbox', { name: 'Search help' });
    await search.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'support-help');
    await search.fill('cruise');
    await page.getByText(/answers? found/).waitFor();
    await page.getByText('How often can I cruise?').click();
    await page.getByText('Free: one session a week. Premium: one a day. Platinum: as often as you like.').waitFor();
    expect(await page.getByText('How does the game work?').count()).toBe(0);
    await search.fill('');

    await page.getByRole('button', { name: 'Contact support' }).click();
    const sheet = page.getByRole('dialog', { name: 'Contact support' });
    await sheet.getByLabel('Subject').fill('Photo upload stuck');
    await sheet.getByLabel('Your message').fill('It spins and never finishes. I sent a bug report too.');
    expect(await axeViolations(page)).toEqual([]);
    await sheet.getByRole('button', { name: 'Send to support' }).click();
    const thread = page.getByRole('dialog', { name: 'Photo upload stuck' });
    await thread.getByText('It spins and never finishes. I sent a bug report too.').waitFor();
    await thread.getByRole('button', { name: 'Close' }).click();

    // Staff answer; the member is told at once, sees it as new, then reads it.
    const headers = await staff();
    const queue = await e().app.inject({ method: 'GET', url: '/api/v1/admin/support/threads', headers });
    const [first] = (queue.json() as { rows: { id: string }[] }).rows;
    const answer = await e().app.inject({
      method: 'POST',
      url: `/api/v1/admin/support/threads/${first!.id}/messages`,
      headers,
      payload: { text: 'Thanks! Fixed in the next version. Try again tomorrow.' },
    });
    expect(answer.statusCode).toBe(201);
    // No reload: the live channel brings the answer to the open screen.
    await page.getByText('Support answered you').waitFor();
    const item = page.getByRole('button', { name: 'Photo upload stuck, Answered, 1 new' });
    await item.waitFor();
    await screenshot(page, 'support-help-unread');
    await item.click();
    await page.getByText('Thanks! Fixed in the next version. Try again tomorrow.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The sheet sits over the page's bottom: the phone's screen, not the whole page.
    await page.screenshot({ path: path.join(import.meta.dirname, 'screenshots', 'support-thread.png') });
    await context.close();
  });

  it('shows the plans and the payment state read-only', async () => {
    const { context, page } = await e().newPage();
    await member(page);
    await page.goto('/settings/premium');
    await page.getByRole('table', { name: 'What each plan includes' }).waitFor();
    expect(await page.getByText('$9.99').count()).toBe(1);
    expect(await page.getByText('$19.99').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'support-premium');
    await page.goto('/settings/payment');
    await page.getByText('No saved cards').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'support-payment');
    await context.close();
  });
});
