import type { ActivityLog, Medication, Screening } from '@fmk/core';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_PREFERENCES_KEY } from '../../shared/preferences.ts';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const user = me();
beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const med: Medication = {
  id: 'm1',
  name: 'PrEP',
  reminderTime: '23:59',
  reminderType: 'daily',
  postExposureHours: null,
  isActive: true,
  created: '2026-05-01T10:00:00.000Z',
};
const screening: Screening = { id: 's1', date: '2020-01-01', tests: ['HIV'], results: { HIV: 'negative' }, created: '' };
const entry: ActivityLog = {
  id: 'a1',
  date: '2026-05-30',
  partners: [],
  location: null,
  activities: [],
  rating: 4,
  notes: null,
  duration: 45,
  protection: 'protected',
  created: '2026-05-30T20:00:00.000Z',
};

describe('/track', () => {
  it("shows today's doses, the screening and the recent activity", async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'PUT /api/v1/health/settings': () => new Response(null, { status: 204 }),
      'GET /api/v1/health/medications': () => json(200, [med]),
      'GET /api/v1/health/medication-logs': () => json(200, []),
      'GET /api/v1/health/screenings': () => json(200, [screening]),
      'GET /api/v1/activity/contacts': () => json(200, []),
      'GET /api/v1/activity/logs': () => json(200, [entry]),
      'GET /api/v1/activity/stats': () => json(200, { thisWeek: 1, thisMonth: 2, uniquePartners: 3 }),
    });
    start('/track');
    expect(await screen.findByText('PrEP')).toBeTruthy();
    expect(await screen.findByText('Screening overdue')).toBeTruthy();
    expect(await screen.findByText('45 min', { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log activity' })).toBeTruthy();
  });

  it('says tracking is off when health and activity tracking both are', async () => {
    localStorage.setItem(
      APP_PREFERENCES_KEY,
      JSON.stringify({ ...user.appPreferences, healthEnabled: false, activityTrackingEnabled: false }),
    );
    serve({
      'GET /api/v1/auth/session': session({
        ...user,
        appPreferences: { ...user.appPreferences, healthEnabled: false, activityTrackingEnabled: false },
      }),
    });
    start('/track');
    expect(await screen.findByRole('heading', { name: 'Tracking is off' })).toBeTruthy();
  });
});
