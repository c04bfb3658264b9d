import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AuthResult } from '@fmk/core';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, staffFirstSignIn } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });
const PASSWORD = 'a long enough password';

describe('the admin area’s locations screens, in Chromium', () => {
  // No MAP_TILE_URL: the map shows its markers on a plain background.
  const e = useE2E({ MAP_TILE_URL: '' });

  async function apiMember(email: string): Promise<AuthResult> {
    const res = await e().app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: { email, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as AuthResult;
  }

  /** Spots as members leave them: proposals waiting, some approved, one rejected with staff's note. */
  async function seedSpots(by: string): Promise<void> {
    const now = Date.now();
    const spots: [string, string, 'pending' | 'approved' | 'rejected', number, number, string][] = [
      ['Parc des Buttes-Chaumont', 'park', 'pending', 48.8809, 2.3828, 'Upper paths after dark.'],
      ['Sauna Mykonos', 'sauna', 'pending', 48.8625, 2.3495, 'Steam room, lockers, bar.'],
      ['Bois de Vincennes, lake side', 'woods', 'pending', 48.8339, 2.4296, ''],
      ['Le Dépôt', 'club', 'pending', 48.8632, 2.3523, 'Basement, weekends.'],
      ['Plage du Marais', 'beach', 'pending', 48.8566, 2.3622, 'Summer only, by the canal.'],
      ['Tuileries, west terrace', 'park', 'approved', 48.8635, 2.3247, 'Evenings by the orangery.'],
      ['Keller Bar', 'bar', 'approved', 48.8579, 2.3707, 'Leather night on Fridays.'],
      ['My neighbour’s garden', 'other', 'rejected', 48.8412, 2.3001, 'Ask for Marc.'],
    ];
    for (const [i, [name, kind, status, lat, lng, description]] of spots.entries()) {
      await e()
        .database.db.insertInto('cruising_spots')
        .values({
          id: randomUUID(),
          name,
          kind: kind as 'park',
          description,
          lat,
          lng,
          status,
          proposed_by: by,
          reviewed_by: status === 'pending' ? null : by,
          reviewed_at: status === 'pending' ? null : new Date(now - 3_600_000),
          review_note: status === 'rejected' ? 'A private home, not a public place.' : null,
          created_at: new Date(now - (spots.length - i) * 86_400_000),
        })
        .execute();
    }
  }

  async function signIn(page: Page, email: string): Promise<void> {
    await staffFirstSignIn(page, email);
  }

  const settled = (page: Page) => page.waitForFunction(() => !document.querySelector('.animate-spin'));

  it('shows the spots on a map and a list, and an owner approves, corrects and rejects them', async () => {
    const ownerEmail = `owner-${Date.now()}@example.com`;
    const owner = await apiMember(ownerEmail);
    await e().database.db.insertInto('admin_users').values({ user_id: owner.user.uid, role: 'owner', is_active: true }).execute();
    const proposer = await apiMember(`member-${Date.now()}@example.com`);
    await seedSpots(proposer.user.uid);

    // On a laptop: the overview, with its counts, the map and every spot.
    const { page } = await e().newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, ownerEmail);
    await page.getByRole('link', { name: 'Locations' }).click();
    await page.getByRole('heading', { name: 'Locations', level: 1 }).waitFor();
    await settled(page);
    await page.locator('.leaflet-marker-icon').first().waitFor();
    expect(await page.locator('.leaflet-marker-icon').count()).toBe(8);
    expect(await page.getByTestId('spot').count()).toBe(8);
    await page.getByRole('link', { name: /5\s*Waiting for review/ }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-locations');

    // The overview filters by status and searches by name.
    await page.getByLabel('Status', { exact: true }).selectOption('rejected');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('A private home, not a public place.').waitFor();
    expect(await page.getByTestId('spot').count()).toBe(1);

    // The queue: approve one, correct one, reject one with a note.
    await page.getByRole('link', { name: /^Pending/ }).click();
    await page.getByRole('heading', { name: 'Pending locations', level: 1 }).waitFor();
    await settled(page);
    expect(await page.getByTestId('spot').count()).toBe(5);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-locations-pending');
    const spot = (name: string) => page.getByTestId('spot').filter({ hasText: name });
    await spot('Sauna Mykonos').getByRole('button', { name: 'Approve' }).click();
    await spot('Sauna Mykonos').waitFor({ state: 'detached' });
    await spot('Le Dépôt').getByRole('button', { name: 'Edit' }).click();
    await spot('Le Dépôt').getByLabel('Name').fill('Le Dépôt (Marais)');
    await spot('Le Dépôt').getByLabel('Reason (optional)').fill('Its full name');
    await spot('Le Dépôt').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: /Le Dépôt \(Marais\)/ }).waitFor();
    await spot('Plage du Marais').getByRole('button', { name: 'Reject' }).click();
    await spot('Plage du Marais').getByLabel('Why is it rejected?').fill('Closed for the season');
    await spot('Plage du Marais').getByRole('button', { name: 'Reject' }).click();
    await spot('Plage du Marais').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Pending (3)' }).waitFor();

    await page.getByRole('link', { name: /^Approved/ }).click();
    await page.getByRole('heading', { name: 'Approved locations', level: 1 }).waitFor();
    await settled(page);
    expect(await page.getByTestId('spot').count()).toBe(3);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-locations-approved');

    // On a phone: the same screens, one column, the menu behind a button.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/locations/pending');
    await page.getByRole('heading', { name: 'Pending locations', level: 1 }).waitFor();
    await settled(page);
    await page.locator('.leaflet-marker-icon').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'admin-locations-phone');

    // Each of the three writes left its audit row.
    const rows = await e()
      .database.db.selectFrom('audit_log')
      .select(['action', 'reason'])
      .where('target_type', '=', 'spot')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['location_approve', 'location_edit', 'location_reject']);
    expect(rows[2]!.reason).toBe('Closed for the season');
  }, 180_000);
});
