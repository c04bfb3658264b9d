import type { AdminUserDetail } from '@fmk/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

afterEach(resetAdmin);

const user = (extra: Partial<AdminUserDetail> = {}): AdminUserDetail => ({
  id: 'u-9',
  anonymousId: 'anon_abcdefabcdef',
  displayName: 'Theo',
  tier: 'free',
  isActive: true,
  staffRole: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  lastSeen: '2026-11-20T10:00:00.000Z',
  age: 31,
  bio: 'Climber.',
  onboardingComplete: true,
  photos: 2,
  reportsAgainst: 1,
  reportsBy: 1,
  reports: {
    against: [
      {
        id: 'r1',
        category: 'harassment',
        reason: 'Threatened me',
        status: 'pending',
        createdAt: '2026-11-19T10:00:00.000Z',
        other: { id: 'u-acc', displayName: 'Accuser', anonymousId: 'anon_a' },
      },
    ],
    by: [
      {
        id: 'r2',
        category: 'fake_profile',
        reason: 'Photos are not his',
        status: 'dismissed',
        createdAt: '2026-11-18T10:00:00.000Z',
        other: { id: 'u-otto', displayName: null, anonymousId: 'anon_otto' },
      },
    ],
  },
  moderationItems: [
    { id: 'm1', status: 'pending', contentType: 'profile_photo', flaggedReason: 'nudity', createdAt: '2026-11-19T09:00:00.000Z' },
  ],
  banned: null,
  ...extra,
});

/** The user's record at GET /admin/users/u-9 (`current` may change between calls); writes answer 204. */
function serveUser(role: string, current: () => AdminUserDetail) {
  return serveAdmin(role, (method, url) => {
    if (method === 'POST') return new Response(null, { status: 204 });
    if (url.pathname.endsWith('/admin/users/u-9')) return json(current());
    return undefined;
  });
}

describe('admin users/:id', () => {
  it('shows the reports against him and by him, each with the other member, and his moderation items', async () => {
    serveUser('admin', () => user());
    startAdmin('/admin/users/u-9');
    const against = await screen.findByRole('region', { name: 'Reports against him' });
    expect(within(against).getByText('Threatened me')).toBeTruthy();
    expect(within(against).getByRole('link', { name: 'Accuser' }).getAttribute('href')).toBe('/admin/users/u-acc');
    const by = screen.getByRole('region', { name: 'Reports he made' });
    expect(within(by).getByText('Photos are not his')).toBeTruthy();
    expect(within(by).getByRole('link', { name: 'anon_otto' }).getAttribute('href')).toBe('/admin/users/u-otto');
    const items = screen.getByRole('region', { name: 'Moderation items' });
    expect(
      within(items)
        .getByRole('link', { name: /Profile photo · pending/ })
        .getAttribute('href'),
    ).toBe('/admin/content/pending');
    expect(within(items).getByText(/flagged: nudity/)).toBeTruthy();
  });

  it('bans until a date with a reason, then offers the unban, which sends its reason', async () => {
    let banned: AdminUserDetail['banned'] = null;
    const calls = serveUser('moderator', () => user({ banned, isActive: banned === null }));
    startAdmin('/admin/users/u-9');
    const ban = await screen.findByRole('form', { name: 'Ban' });
    fireEvent.change(within(ban).getByLabelText(/Until/), { target: { value: '2026-12-24' } });
    fireEvent.change(within(ban).getByLabelText('Reason'), { target: { value: 'Spam links' } });
    banned = { reason: 'Spam links', until: '2026-12-24T00:00:00.000Z' };
    fireEvent.submit(ban);
    await waitFor(() => {
      const sent = calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith('/ban'));
      expect(sent?.body).toEqual({ reason: 'Spam links', until: '2026-12-24T00:00:00.000Z' });
    });
    // The record is read again: he is banned, so the unban replaces the ban.
    const unban = await screen.findByRole('form', { name: 'Unban' });
    expect(screen.getByTestId('user-status').textContent).toMatch(/^banned until .*: Spam links$/);
    fireEvent.change(within(unban).getByLabelText('Reason'), { target: { value: 'Appeal accepted' } });
    fireEvent.submit(unban);
    await waitFor(() => {
      const sent = calls.find((c) => c.method === 'POST' && c.url.pathname.endsWith('/unban'));
      expect(sent?.body).toEqual({ reason: 'Appeal accepted' });
    });
  });

  it('gives a moderator only the ban and the lookup; an admin also deactivates, changes the tier and the anonymous id', async () => {
    serveUser('moderator', () => user());
    startAdmin('/admin/users/u-9');
    await screen.findByRole('form', { name: 'Ban' });
    for (const name of ['Deactivate', 'Change tier', 'New anonymous id'])
      expect(screen.queryByRole('form', { name }), name).toBeNull();
    expect(screen.getByRole('form', { name: 'Identity lookup' })).toBeTruthy();
    resetAdmin();

    const calls = serveUser('admin', () => user());
    startAdmin('/admin/users/u-9');
    const tier = await screen.findByRole('form', { name: 'Change tier' });
    fireEvent.change(within(tier).getByLabelText('New tier'), { target: { value: 'platinum' } });
    fireEvent.change(within(tier).getByLabelText('Reason'), { target: { value: 'Goodwill after outage' } });
    fireEvent.submit(tier);
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname.endsWith('/tier'))?.body).toEqual({
        reason: 'Goodwill after outage',
        tier: 'platinum',
      }),
    );
    expect(await within(tier).findByRole('status')).toBeTruthy();
    const off = screen.getByRole('form', { name: 'Deactivate' });
    fireEvent.change(within(off).getByLabelText('Reason'), { target: { value: 'Spam account' } });
    fireEvent.submit(off);
    await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/deactivate'))).toBe(true));
  });

  it('says why an action was refused, and has an error state for a record that cannot load', async () => {
    serveAdmin('admin', (method, url) => {
      if (method === 'POST') return json({ error: 'rank', message: 'You can only manage staff below your rank.' }, 403);
      if (url.pathname.endsWith('/admin/users/u-9')) return json(user());
      return undefined;
    });
    startAdmin('/admin/users/u-9');
    const off = await screen.findByRole('form', { name: 'Deactivate' });
    fireEvent.change(within(off).getByLabelText('Reason'), { target: { value: 'Spam account' } });
    fireEvent.submit(off);
    expect(await within(off).findByText('You can only manage staff below your rank.')).toBeTruthy();
    resetAdmin();

    serveAdmin('admin', (_m, url) =>
      url.pathname.endsWith('/admin/users/u-9') ? json({ message: 'User not found' }, 404) : undefined,
    );
    startAdmin('/admin/users/u-9');
    expect(await screen.findByText('Could not load this user')).toBeTruthy();
  });
});
