import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AuthResult } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import { axeViolations, staffFirstSignIn } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });
const PASSWORD = 'a long enough password';
let n = 0;
const address = (who: string) => `${who}${++n}-${Date.now()}@example.com`;

describe('the admin dashboard and analytics, in Chromium', () => {
  const e = useE2E();

  async function apiMember(email: string, onboarded = true): Promise<AuthResult> {
    const res = await e().app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { email, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as AuthResult;
    await e()
      .database.db.updateTable('users')
      .set({ onboarding_complete: onboarded, display_name: email.split('@')[0]! })
      .where('id', '=', body.user.uid)
      .execute();
    return body;
  }

  it('an owner reads the real figures on the dashboard and analytics, at 1280 and 390 px, with no axe violations', async () => {
    const ownerEmail = address('owner');
    const owner = await apiMember(ownerEmail);
    await e().database.db.insertInto('admin_users').values({ user_id: owner.user.uid, role: 'owner', is_active: true }).execute();
    const member = await apiMember(address('member'));
    await apiMember(address('newcomer'), false);
    // One completed payment and one failed one today: revenue is the completed one only.
    for (const [status, amount] of [
      ['completed', 1234],
      ['failed', 999],
    ] as const)
      await e()
        .database.db.insertInto('payments')
        .values({
          id: randomUUID(),
          user_id: member.user.uid,
          subscription_id: null,
          kind: 'one_time',
          status,
          amount,
          currency: 'USD',
          provider_payment_id: null,
          note: null,
          created_at: new Date(),
        })
        .execute();
    const members = (await e().database.db.selectFrom('users').select('id').execute()).length;

    // The owner signs in on a laptop: password, then his authenticator (first use: set it up).
    const { page } = await e().newPage({ viewport: { width: 1280, height: 800 } });
    await staffFirstSignIn(page, ownerEmail);

    const figure = (label: string) =>
      page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await page.goto('/admin/dashboard');
      await page.getByText('Revenue today').waitFor();
      expect(await figure('Revenue today').textContent()).toBe('$12.34');
      expect(await figure('Members').textContent()).toBe(String(members));
      expect(Number(await figure('Sign-ups today').textContent())).toBeGreaterThanOrEqual(3);
      // uPlot draws the charts (a canvas each) once its chunk has loaded.
      await page.locator('figure canvas').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `admin-dashboard-${width}`);

      await page.goto('/admin/analytics');
      await page.getByRole('heading', { name: 'Funnel' }).waitFor();
      const signedUp = page.getByRole('table', { name: 'From sign-up to a first message' }).getByRole('row').nth(1);
      expect(await signedUp.textContent()).toContain(String(members));
      expect(await page.getByRole('table', { name: 'Accounts by tier' }).textContent()).toContain('free');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `admin-analytics-${width}`);
      if (width < 480) {
        // No sideways scrolling on a phone: the tables are cards.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
  });
});
