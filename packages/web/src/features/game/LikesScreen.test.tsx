import { type LikesPage, WHO_LIKES_YOU_UPSELL } from '@fmk/core';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { VERIFIED_LABEL } from '../../ui/VerifiedBadge.tsx';

const likes = (over: Partial<LikesPage> = {}): LikesPage => ({
  count: 3,
  fuck: 2,
  marry: 1,
  unseen: 2,
  redacted: false,
  items: [
    {
      user: { uid: 'u5', displayName: 'Jay', age: 28, photoURL: null, verified: true },
      action: 'marry',
      super: true,
      at: new Date().toISOString(),
      seen: false,
    },
    {
      user: { uid: 'u6', displayName: 'Ben', age: 33, photoURL: null, verified: false },
      action: 'fuck',
      super: false,
      at: new Date().toISOString(),
      seen: false,
    },
    {
      user: { uid: 'u7', displayName: null, age: null, photoURL: null, verified: false },
      action: 'fuck',
      super: false,
      at: '2030-01-01T00:00:00Z',
      seen: true,
    },
  ],
  ...over,
});

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('who likes you /likes', () => {
  it('shows Premium users faces and names, newest first, and marks them seen', async () => {
    const user = me({ subscriptionTier: 'premium' });
    signInStored(user);
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/likes': () => json(200, likes()),
      'POST /api/v1/likes/seen': () => new Response(null, { status: 204 }),
    });
    start('/likes');
    const list = await screen.findByRole('list', { name: 'Men who like you' });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('aria-label'))).toEqual([
      'Jay, 28, verified: super marry, new',
      'Ben, 33: fuck, new',
      'Anonymous, 25: fuck',
    ]);
    expect(links[0]?.getAttribute('href')).toBe('/profile/u5');
    expect(within(links[0] as HTMLElement).getByRole('img', { name: VERIFIED_LABEL })).toBeTruthy();
    expect(within(links[1] as HTMLElement).queryByRole('img', { name: VERIFIED_LABEL })).toBeNull();
    expect(screen.queryByText(WHO_LIKES_YOU_UPSELL)).toBeNull();
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /api/v1/likes/seen')).toHaveLength(1));
  });

  it('shows free users the count and blurred cards with the upgrade prompt, and no names', async () => {
    const user = me();
    signInStored(user);
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/likes': () => json(200, likes({ redacted: true, items: likes().items.map((i) => ({ ...i, user: null })) })),
      'POST /api/v1/likes/seen': () => new Response(null, { status: 204 }),
    });
    start('/likes');
    expect(await screen.findByText(WHO_LIKES_YOU_UPSELL)).toBeTruthy();
    expect(screen.getByText('3 men')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Men who like you' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Jay/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'See who likes you' }).getAttribute('href')).toBe('/settings/premium');
  });
});

describe('the Messages tab badge', () => {
  it("reads '9+' above 9 and lists new matches on /messages", async () => {
    const user = me();
    signInStored(user);
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/badges': () => json(200, { messages: 12 }),
      'GET /api/v1/matches': () =>
        json(200, [
          {
            id: 'm1',
            users: ['u1', 'u2'],
            matchType: 'perfect-marry',
            userActions: { u1: 'marry', u2: 'marry' },
            matchedAt: '2030-01-01T00:00:00.000Z',
            createdAt: '2030-01-01T00:00:00.000Z',
            conversationId: 'c1',
            other: { uid: 'u2', displayName: 'Alex', photoURL: null },
          },
        ]),
    });
    start('/messages');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(within(nav).getByRole('link', { name: /Messages/ }).textContent).toContain('9+'));
    expect(within(nav).getByRole('link', { name: /Messages/ }).textContent).toContain(', 9+ new');
    const row = await screen.findByRole('region', { name: 'New matches' });
    expect(within(row).getByRole('link', { name: 'Alex: Perfect marry match. Say hi' }).getAttribute('href')).toBe(
      '/messages/chat/u2',
    );
    expect(screen.getByRole('link', { name: /Likes you/ }).getAttribute('href')).toBe('/likes');
  });
});
