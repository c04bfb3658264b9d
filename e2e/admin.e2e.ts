import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AuthResult } from '@fmk/core';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, onboard, signUp } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });
const PASSWORD = 'a long enough password';
let n = 0;
const address = (who: string) => `${who}${++n}-${Date.now()}@example.com`;

describe('the staff admin area, in Chromium', () => {
  // Every photo is held for review here, so the member's first photo waits for staff.
  const e = useE2E({ MODERATION_HOLD_AT: '0.0001' });

  async function apiMember(email: string): Promise<AuthResult> {
    const res = await e().app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { email, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as AuthResult;
    await e()
      .database.db.updateTable('users')
      .set({ onboarding_complete: true, display_name: email.split('@')[0]! })
      .where('id', '=', body.user.uid)
      .execute();
    return body;
  }

  /** The second factor step: reads the key the screen shows, computes the code as an authenticator would. */
  async function secondFactor(page: Page): Promise<void> {
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Authenticator code').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    expect(await page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
  }

  it('an owner invites a moderator, who signs in with a second factor, approves a held photo and bans a reported member', async () => {
    // The owner, made as `npm run admin -- create-owner` makes him.
    const ownerEmail = address('owner');
    const owner = await apiMember(ownerEmail);
    await e().database.db.insertInto('admin_users').values({ user_id: owner.user.uid, role: 'owner', is_active: true }).execute();

    // A member on his phone: signs up and onboards; his photo is held for review.
    const { page: memberPage } = await e().newPage();
    await signUp(memberPage);
    await onboard(memberPage, 'Theo');
    await memberPage.getByRole('button', { name: 'Finish' }).click();
    await memberPage.waitForURL('**/grid');
    await (e().app as unknown as { moderation: { settle(): Promise<void> } }).moderation.settle();
    await memberPage.goto('/profile/edit');
    await memberPage.getByText('In review').first().waitFor();

    // A member who behaves badly, signed in on his phone, and a member who reports him.
    const badEmail = address('bad');
    const { page: badPage } = await e().newPage();
    await signUp(badPage, badEmail);
    const bad = await e().database.db.selectFrom('users').select('id').where('email', '=', badEmail).executeTakeFirstOrThrow();
    const reporter = await apiMember(address('reporter'));
    const filed = await e().app.inject({
      method: 'POST',
      url: `/api/v1/users/${bad.id}/report`,
      headers: { authorization: `Bearer ${reporter.token}` },
      payload: { reason: 'Sent threats', category: 'harassment', description: 'He threatened me after I said no.' },
    });
    expect(filed.statusCode, filed.body).toBe(201);
    // The reporter, a Platinum member, also asks support something and sends feedback.
    await e()
      .database.db.updateTable('users')
      .set({ subscription_tier: 'platinum' })
      .where('id', '=', reporter.user.uid)
      .execute();
    for (const [url, payload] of [
      ['/api/v1/support/threads', { subject: 'Cannot change my plan', text: 'The button does nothing.' }],
      [
        '/api/v1/support/reports',
        { kind: 'bug', category: 'grid', text: 'The grid stays empty after a refresh.', appVersion: '1.0.0' },
      ],
    ] as const) {
      const sent = await e().app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${reporter.token}` }, payload });
      expect(sent.statusCode, sent.body).toBe(201);
    }

    // Members never reach the staff area: a member session is sent to the staff sign-in.
    await memberPage.goto('/admin/dashboard');
    await memberPage.waitForURL('**/admin/login');

    // The owner signs in on a laptop: password, then his authenticator (first use: set it up).
    const { page: ownerPage } = await e().newPage({ viewport: { width: 1280, height: 800 } });
    await ownerPage.goto('/admin/users');
    await ownerPage.waitForURL('**/admin/login');
    await ownerPage.getByLabel('Email').fill(ownerEmail);
    await ownerPage.getByLabel('Password').fill('wrong password!');
    await ownerPage.getByRole('button', { name: 'Sign in' }).click();
    await ownerPage.getByText('Login failed. Please try again.').waitFor();
    await ownerPage.getByLabel('Password').fill(PASSWORD);
    await ownerPage.getByRole('button', { name: 'Sign in' }).click();
    expect(await axeViolations(ownerPage)).toEqual([]);
    await screenshot(ownerPage, 'admin-second-factor');
    await secondFactor(ownerPage);
    await ownerPage.waitForURL('**/admin/dashboard');
    await ownerPage.getByText('Photos to review').waitFor();

    // He invites a moderator by email.
    const modEmail = address('mod');
    await apiMember(modEmail);
    await ownerPage.getByRole('link', { name: 'Invites' }).click();
    await ownerPage.getByLabel('Email').fill(modEmail);
    await ownerPage.getByLabel('Role').selectOption('moderator');
    await ownerPage.getByRole('button', { name: 'Send invite' }).click();
    const link = (await ownerPage.getByTestId('invite-link').textContent())!.trim();
    await ownerPage.getByRole('cell', { name: modEmail }).waitFor();

    // The moderator opens the link on his phone, confirms with his password, sets up his second factor.
    const { page: modPage } = await e().newPage();
    await modPage.goto(new URL(link).pathname);
    await modPage.getByText('Join the team as moderator').waitFor();
    expect(await axeViolations(modPage)).toEqual([]);
    await modPage.getByLabel('Password').fill(PASSWORD);
    await modPage.getByRole('button', { name: 'Accept the invite' }).click();
    await secondFactor(modPage);
    await modPage.waitForURL('**/admin/dashboard');
    // A moderator's menu has only what he may use.
    await modPage.getByRole('button', { name: 'Menu' }).click();
    const menu = modPage.locator('#admin-menu').getByRole('link');
    expect(await menu.allTextContents()).toEqual([
      'Dashboard',
      'Analytics',
      'Users',
      'Banned',
      'Reports',
      'Report triage',
      'Reported messages',
      'Photos',
      'Locations',
      'Support',
      'Bugs & feedback',
      'Subscriptions',
      'Pricing',
      'Limits',
      'My account',
    ]);
    await screenshot(modPage, 'admin-moderator-menu');

    // He approves the held photo, with the keyboard; its owner sees it go live.
    await menu.getByText('Photos').click();
    await modPage.getByTestId('moderation-item').first().waitFor();
    expect(await axeViolations(modPage)).toEqual([]);
    await screenshot(modPage, 'admin-content-pending');
    await modPage.keyboard.press('a');
    await modPage.getByRole('heading', { name: 'No pending photos' }).waitFor();
    await memberPage.goto('/profile/edit');
    await memberPage
      .getByRole('heading', { name: /photos/i })
      .first()
      .waitFor();
    expect(await memberPage.getByText('In review').count()).toBe(0);

    // He bans the reported member from the report: that member is signed out at once.
    await modPage.goto('/admin/users/reports');
    const report = modPage.getByTestId('report').first();
    await report.getByText('harassment · Sent threats').waitFor();
    expect(await axeViolations(modPage)).toEqual([]);
    await screenshot(modPage, 'admin-reports');
    await report.getByRole('button', { name: 'Ban him' }).click();
    await report.getByLabel('Reason for the ban').fill('Threats to another member');
    await report.getByRole('button', { name: 'Ban permanently' }).click();
    await modPage.getByRole('heading', { name: 'No pending reports' }).waitFor();
    await badPage.reload();
    await badPage.waitForURL((u) => u.pathname === '/');
    // ...and cannot sign up again with the same email.
    await badPage.getByRole('link', { name: 'Sign up' }).click();
    await badPage.getByLabel('Email').fill(badEmail);
    await badPage.getByLabel('Password').fill(PASSWORD);
    await badPage.getByRole('button', { name: 'Sign up', exact: true }).last().click();
    await badPage.getByText('Your email is permanently banned. Reason: Threats to another member').waitFor();

    // Every built screen renders on real data and passes axe, for the owner.
    const screens: [string, string][] = [
      ['dashboard', 'Dashboard'],
      ['users', 'Users'],
      ['users/banned', 'Banned emails'],
      ['users/reports', 'Reports'],
      ['reports', 'Reports'],
      ['messages', 'Reported messages'],
      ['subscriptions', 'Subscriptions'],
      ['subscriptions/pricing', 'Pricing'],
      ['subscriptions/limits', 'Limits and feature flags'],
      ['payments', 'Payments'],
      ['financial', 'Financial'],
      ['financial/revenue', 'Revenue'],
      ['financial/forecasting', 'Forecast'],
      ['content/approved', 'Photos'],
      ['support', 'Support'],
      ['feedback', 'Bugs & feedback'],
      ['prompts', 'Prompts'],
      ['team/members', 'Team'],
      ['team/invites', 'Invites'],
      ['team/permissions', 'Permissions'],
      ['system/audit', 'Audit log'],
      ['system/settings', 'Beta settings'],
      ['system/health', 'System health'],
      ['settings', 'My account'],
    ];
    for (const [p, heading] of screens) {
      await ownerPage.goto(`/admin/${p}`);
      await ownerPage.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await ownerPage.waitForFunction(() => !document.querySelector('.animate-spin'));
      expect(await axeViolations(ownerPage), p).toEqual([]);
      await screenshot(ownerPage, `admin-${p.replace('/', '-')}`);
    }
    await ownerPage.goto('/admin/support');
    await ownerPage.getByTestId('thread').getByText('Priority').waitFor();
    // He opens the conversation, answers and closes it; the member sees the answer.
    await ownerPage.getByRole('link', { name: /Cannot change my plan/ }).click();
    await ownerPage.getByText('The button does nothing.').waitFor();
    expect(await axeViolations(ownerPage)).toEqual([]);
    await ownerPage.getByLabel('Your answer').fill('Fixed now: try again, please.');
    await ownerPage.getByRole('button', { name: 'Send answer' }).click();
    await ownerPage.getByText('Fixed now: try again, please.').waitFor();
    await ownerPage.getByRole('button', { name: 'Close conversation' }).click();
    await ownerPage.getByText('This conversation is closed.').waitFor();
    await screenshot(ownerPage, 'admin-support-thread');
    const mine = await e().app.inject({
      method: 'GET',
      url: '/api/v1/support/threads',
      headers: { authorization: `Bearer ${reporter.token}` },
    });
    expect(mine.json()).toEqual([expect.objectContaining({ subject: 'Cannot change my plan', status: 'closed' })]);
    await ownerPage.goto('/admin/feedback');
    await ownerPage.getByTestId('feedback').getByLabel('Status').selectOption('in_review');
    await ownerPage.getByRole('heading', { name: 'No reports here' }).waitFor();
    await ownerPage.goto('/admin/system/audit');
    await ownerPage.getByText(/Hash chain intact/).waitFor();
    expect(await ownerPage.getByRole('cell', { name: 'ban_email' }).count()).toBe(1);
    await ownerPage.goto('/admin/users/banned');
    await ownerPage.getByRole('cell', { name: 'Threats to another member' }).waitFor();
    // A loaded 2-core machine takes over 10 s a screen: the walk's time grows with the screens.
  }, 480_000);
});
