import { cleanup, fireEvent, screen, within } from '@testing-library/react';
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

describe('/settings/blocked-users', () => {
  it('lists blocked users and unblocks one, then shows the empty state', async () => {
    let blocked = [{ uid: 'u9', displayName: 'Dan', photoURL: null, blockedAt: '2030-03-04T10:00:00.000Z' }];
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/blocked': () => json(200, blocked),
      'DELETE /api/v1/users/u9/block': () => {
        blocked = [];
        return new Response(null, { status: 204 });
      },
    });
    start('/settings/blocked-users');
    const list = await screen.findByRole('list', { name: 'Blocked users' });
    expect(within(list).getByText('Dan')).toBeTruthy();
    expect(within(list).getByText(/^Blocked .*2030/)).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Unblock Dan' }));
    expect(await screen.findByRole('heading', { name: "You haven't blocked anyone" })).toBeTruthy();
    expect(calls.some((c) => c.key === 'DELETE /api/v1/users/u9/block')).toBe(true);
  });
});
