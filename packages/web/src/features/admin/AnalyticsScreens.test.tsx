import type { Analytics, Dashboard } from '@fmk/core';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

const days = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 4, 3 + i)).toISOString().slice(0, 10));
const series = (at: Record<string, number> = {}) => days.map((day) => ({ day, n: at[day] ?? 0 }));

const dashboard: Dashboard = {
  today: { signups: 1, activeUsers: 2, matches: 1, messages: 3, revenue: 999, openReports: 1, pendingModeration: 1 },
  days: {
    signups: series({ '2026-06-01': 1, '2026-05-31': 1 }),
    activeUsers: series({ '2026-06-01': 2 }),
    matches: series({ '2026-06-01': 1 }),
    messages: series({ '2026-06-01': 3 }),
    revenue: series({ '2026-06-01': 999, '2026-05-30': 1699 }),
    reports: series(),
    moderation: series(),
  },
  totals: { users: 5, activeUsers30d: 3, revenue30d: 2698, openReports: 1, pendingModeration: 1 },
  currency: 'USD',
  activeMeans: 'seen in the app that day',
};

const analytics: Analytics = {
  currentWeek: '2026-06-01',
  from: '2026-03-16',
  activeMeans: 'seen in the app that day',
  cohorts: [
    { cohort: '2026-06-01', size: 2, weeks: [{ week: 0, active: 1, percent: 50 }] },
    {
      cohort: '2026-05-25',
      size: 4,
      weeks: [
        { week: 0, active: 4, percent: 100 },
        { week: 1, active: 1, percent: 25 },
      ],
    },
  ],
  funnel: [
    { step: 'signedUp', label: 'Signed up', count: 4, ofPrevious: 100, ofSignedUp: 100 },
    { step: 'onboarded', label: 'Onboarding complete', count: 3, ofPrevious: 75, ofSignedUp: 75 },
    { step: 'matched', label: 'First match', count: 3, ofPrevious: 100, ofSignedUp: 75 },
    { step: 'messaged', label: 'First message', count: 2, ofPrevious: 66.7, ofSignedUp: 50 },
  ],
  modeMix: [
    { key: 'dating', count: 4, percent: 80 },
    { key: 'now', count: 1, percent: 20 },
  ],
  tierMix: [
    { key: 'free', count: 3, percent: 60 },
    { key: 'premium', count: 1, percent: 20 },
    { key: 'platinum', count: 1, percent: 20 },
  ],
};

/** The server as the browser meets it, with the role given and one answer for the screen's call. */
const serve = (role: string, answer: () => Response | Promise<Response>) =>
  serveAdmin(role, (_m, url) =>
    url.pathname.endsWith('/admin/dashboard') || url.pathname.endsWith('/admin/analytics') ? answer() : undefined,
  );

afterEach(resetAdmin);

describe('the dashboard', () => {
  it("shows today's figures, revenue as money, and a chart with its numbers for each series", async () => {
    serve('owner', () => json(dashboard));
    startAdmin('/admin/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeTruthy();
    await screen.findByText('Messages today');
    const term = (t: string) => screen.getByText(t, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(term('Messages today')).toBe('3');
    expect(term('Revenue today')).toBe('$9.99');
    expect(term('Revenue in 30 days')).toBe('$26.98');
    const revenue = screen.getByRole('figure', { name: 'Revenue' });
    expect(within(revenue).getByText('$26.98 in 30 days')).toBeTruthy();
    expect(within(revenue).getAllByRole('row')).toHaveLength(31);
    for (const name of ['Sign-ups', 'Active members', 'Matches', 'Messages', 'Reports filed', 'Photos held for review'])
      expect(screen.getByRole('figure', { name })).toBeTruthy();
  });

  it('says when it is loading, when it fails, and when there is nobody yet', async () => {
    let release: (r: Response) => void = () => undefined;
    serve('owner', () => new Promise<Response>((r) => (release = r)));
    startAdmin('/admin/dashboard');
    expect(await screen.findByText('Loading the dashboard')).toBeTruthy();
    release(json({ ...dashboard, totals: { ...dashboard.totals, users: 0 } }));
    expect(await screen.findByText('No members yet')).toBeTruthy();
    cleanup();
    serve('owner', () => json({ error: 'x', message: 'The database is down.' }, 500));
    startAdmin('/admin/dashboard');
    expect(await screen.findByText('Could not load the dashboard')).toBeTruthy();
  });
});

describe('analytics', () => {
  it('shows the cohorts, the funnel and the mix; an owner may export', async () => {
    serve('owner', () => json(analytics));
    startAdmin('/admin/analytics');
    expect(await screen.findByRole('heading', { name: 'Analytics', level: 1 })).toBeTruthy();
    const cohorts = await screen.findByRole('table', { name: /sign-up week's members active/ });
    const rows = within(cohorts).getAllByRole('row');
    expect(rows.map((r) => within(r).queryAllByRole('columnheader').length || null).filter(Boolean)).toEqual([4]);
    expect(rows[1]!.textContent).toContain('50 %');
    expect(rows[2]!.textContent).toContain('25 %');
    expect(screen.getByText(/Active means seen in the app that day/)).toBeTruthy();
    const funnel = screen.getByRole('table', { name: 'From sign-up to a first message' });
    expect(within(funnel).getByText('First message').closest('tr')!.textContent).toContain('66.7 %');
    expect(within(screen.getByRole('table', { name: 'Accounts by tier' })).getByText('premium')).toBeTruthy();
    for (const kind of ['cohorts', 'funnel', 'mix'])
      expect(screen.getByRole('button', { name: `Export ${kind} CSV` })).toBeTruthy();
  });

  it('offers a moderator no export, and says when it fails', async () => {
    serve('moderator', () => json(analytics));
    startAdmin('/admin/analytics');
    expect(await screen.findByRole('heading', { name: 'Funnel' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Export/ })).toBeNull();
    cleanup();
    serve('owner', () => json({ error: 'x', message: 'The database is down.' }, 500));
    startAdmin('/admin/analytics');
    expect(await screen.findByText('Could not load analytics')).toBeTruthy();
  });
});
