import type { ActivityLog, Contact } from '@fmk/core';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

const contact: Contact = {
  id: 'c1',
  name: 'Marco',
  nickname: null,
  age: null,
  photoURL: null,
  userId: null,
  phoneNumber: null,
  notes: null,
  tags: [],
  lastActivity: '2026-05-30',
  totalActivities: 1,
  avgRating: 3,
  created: '2026-05-01T10:00:00.000Z',
};
const entry: ActivityLog = {
  id: 'a1',
  date: '2026-05-30',
  partners: ['c1'],
  location: 'Hotel',
  activities: ['Kissing'],
  rating: 3,
  notes: null,
  duration: 45,
  protection: 'protected',
  created: '2026-05-30T20:00:00.000Z',
};

describe('/activity/log?edit=', () => {
  it('opens the entry in the log form and saves the changes with PATCH', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/activity/contacts': () => json(200, [contact]),
      'GET /api/v1/activity/logs': () => json(200, [entry]),
      'GET /api/v1/activity/stats': () => json(200, {}),
      'PATCH /api/v1/activity/logs/a1': () => json(200, { ...entry, location: 'Sauna' }),
    });
    start('/activity/log?edit=a1');
    const location = (await screen.findByLabelText('Location')) as HTMLInputElement;
    expect(location.value).toBe('Hotel');
    expect(screen.getByRole('heading', { name: 'Edit activity' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Marco' }).getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByLabelText('Duration (minutes)') as HTMLInputElement).value).toBe('45');

    fireEvent.change(location, { target: { value: 'Sauna' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/activity'));
    expect(calls.find((c) => c.key === 'PATCH /api/v1/activity/logs/a1')?.body).toMatchObject({
      date: '2026-05-30',
      partners: ['c1'],
      location: 'Sauna',
      rating: 3,
      duration: 45,
      protection: 'protected',
    });
    // The server learns the browser's zone without a visit to Health: the stats' "today" is his.
    expect(calls.find((c) => c.key === 'PUT /api/v1/health/settings')?.body).toEqual({
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  it('says so when the entry is gone', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/activity/contacts': () => json(200, [contact]),
      'GET /api/v1/activity/logs': () => json(200, []),
    });
    start('/activity/log?edit=gone');
    expect(await screen.findByText('This entry no longer exists')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Activity' })).toBeTruthy();
  });
});
