import type { Conversation, GridCell } from '@fmk/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientCache } from '../shared/clientCache.ts';
import { json, match, me, publicProfile, serve, session, signInStored, start } from '../test/fixtures.tsx';
import { ProfileCell } from './ProfileCell.tsx';
import { VERIFIED_LABEL } from './VerifiedBadge.tsx';

const cell = (over: Partial<GridCell>): GridCell => ({
  uid: 'u2',
  displayName: 'Alex',
  age: 31,
  photoURL: null,
  distance: '3 km',
  isOnline: false,
  currentMode: 'dating',
  rightNow: null,
  verified: false,
  locked: false,
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  clientCache.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the verified badge', () => {
  it("shows on a verified man's grid cell and is said in its link's name; not on others nor on a locked cell", () => {
    const size = { width: 120, height: 160 };
    const { unmount } = render(
      <MemoryRouter>
        <ProfileCell cell={cell({ verified: true })} size={size} onLocked={() => undefined} />
        <ProfileCell cell={cell({ uid: 'u3', displayName: 'Sam' })} size={size} onLocked={() => undefined} />
      </MemoryRouter>,
    );
    const verified = screen.getByRole('link', { name: 'Alex, 31, verified, 3 km away' });
    expect(within(verified).getByTitle(VERIFIED_LABEL)).toBeTruthy();
    const plain = screen.getByRole('link', { name: 'Sam, 31, 3 km away' });
    expect(within(plain).queryByTitle(VERIFIED_LABEL)).toBeNull();
    unmount();
    render(
      <MemoryRouter>
        <ProfileCell cell={cell({ verified: true, locked: true })} size={size} onLocked={() => undefined} />
      </MemoryRouter>,
    );
    expect(screen.queryByTitle(VERIFIED_LABEL)).toBeNull();
  });

  it("shows beside a verified man's name on his profile", async () => {
    const user = me();
    signInStored(user);
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () => json(200, publicProfile({ verified: true })),
    });
    start('/profile/u2');
    const heading = await screen.findByRole('heading', { level: 1, name: `Alex, 31 ${VERIFIED_LABEL}` });
    expect(within(heading).getByRole('img', { name: VERIFIED_LABEL })).toBeTruthy();
  });

  it('shows on the Messages tab: a new match and a conversation with a verified man', async () => {
    const user = me();
    signInStored(user);
    const chat: Conversation = {
      id: 'c9',
      type: 'matched',
      mode: 'dating',
      matchType: 'mixed',
      isAccepted: true,
      other: { uid: 'u9', displayName: 'Vic', photoURL: null, verified: true, isOnline: false },
      lastMessage: { id: 'x9', senderId: 'u9', type: 'text', content: 'Hi', timestamp: new Date().toISOString() },
      lastActivity: new Date().toISOString(),
      unreadCount: 0,
      typing: false,
      createdAt: new Date().toISOString(),
    };
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/badges': () => json(200, { messages: 0 }),
      'GET /api/v1/likes': () => json(200, { count: 0, unseen: 0, items: [], locked: false }),
      'GET /api/v1/matches': () =>
        json(200, [
          match({ id: 'm2', conversationId: '', other: { uid: 'u2', displayName: 'Alex', photoURL: null, verified: true } }),
        ]),
      'GET /api/v1/conversations': () => json(200, [chat]),
    });
    start('/messages');
    const conversation = await screen.findByRole('link', { name: 'Vic, verified' });
    expect(within(conversation).getByRole('img', { name: VERIFIED_LABEL })).toBeTruthy();
    const newMatch = await screen.findByRole('link', { name: /^Alex, verified: / });
    expect(within(newMatch).getByRole('img', { name: VERIFIED_LABEL })).toBeTruthy();
  });
});
