import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin } from './admin-test-kit.tsx';

afterEach(resetAdmin);

const ban = {
  hash: 'abcdef0123456789',
  reason: 'Scam links',
  bannedBy: 'staff-1234567',
  bannedByName: 'Modesty',
  bannedAt: '2026-11-20T10:00:00.000Z',
  until: null,
  isPermanent: true,
  associatedAnonymousIds: ['anon_x'],
};

describe('users/banned', () => {
  it('searches on the server, shows who banned, and lifts a ban', async () => {
    const calls = serveAdmin('moderator', (method, url) => {
      if (method === 'DELETE') return new Response(null, { status: 204 });
      if (url.pathname.endsWith('/admin/bans')) return json({ rows: [ban], total: 1, page: 1, pageSize: 50 });
      return undefined;
    });
    startAdmin('/admin/users/banned');
    expect(await screen.findByText('Modesty')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'scam' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('q') === 'scam')).toBe(true));
    fireEvent.click(await screen.findByRole('button', { name: 'Lift ban' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE')?.url.pathname).toBe('/api/v1/admin/bans/abcdef0123456789'),
    );
  });

  it('has an empty state', async () => {
    serveAdmin('moderator', (_m, url) =>
      url.pathname.endsWith('/admin/bans') ? json({ rows: [], total: 0, page: 1, pageSize: 50 }) : undefined,
    );
    startAdmin('/admin/users/banned');
    expect(await screen.findByText('No bans')).toBeTruthy();
  });
});
