import type { GridCell } from '@fmk/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientCache } from '../shared/clientCache.ts';
import { json, me, publicProfile, serve, session, signInStored, start } from '../test/fixtures.tsx';
import { ProfileCell } from './ProfileCell.tsx';
import { HIDDEN_PHOTO_URL } from './photoSrc.ts';

const cell = (over: Partial<GridCell>): GridCell => ({
  uid: 'u2',
  displayName: 'Alex',
  age: 31,
  photoURL: '/files/photos/u2/a.t.webp',
  distance: '3 km',
  isOnline: false,
  currentMode: 'dating',
  rightNow: null,
  verified: false,
  locked: false,
  ...over,
});
const size = { width: 120, height: 160 };

beforeEach(() => {
  localStorage.clear();
  clientCache.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Photos the server withholds (photoHidden) or marks to blur (photoBlurred) for this viewer's content filter. */
describe("other men's photos through the viewer's content filter", () => {
  it('a grid cell shows the hidden-photo tile for a withheld photo, a blurred thumbnail for a blurred one', () => {
    render(
      <MemoryRouter>
        <ProfileCell cell={cell({ photoURL: null, photoHidden: 'explicit' })} size={size} onLocked={() => undefined} />
        <ProfileCell cell={cell({ uid: 'u3', displayName: 'Sam', photoBlurred: true })} size={size} onLocked={() => undefined} />
        <ProfileCell cell={cell({ uid: 'u4', displayName: 'Kim' })} size={size} onLocked={() => undefined} />
      </MemoryRouter>,
    );
    const hidden = screen.getByRole('link', { name: 'Alex, 31, 3 km away' }).querySelector('img')!;
    expect(hidden.getAttribute('src')).toBe(HIDDEN_PHOTO_URL);
    expect(hidden.dataset.photo).toBe('hidden');
    expect(hidden.title).toBe('Photo hidden by your content settings');
    const blurred = screen.getByRole('link', { name: 'Sam, 31, 3 km away' }).querySelector('img')!;
    expect(blurred.getAttribute('src')).toBe('/files/photos/u2/a.t.webp');
    expect(blurred.className).toContain('blur-md');
    const plain = screen.getByRole('link', { name: 'Kim, 31, 3 km away' }).querySelector('img')!;
    expect(plain.className).not.toContain('blur');
    expect(plain.dataset.photo).toBeUndefined();
  });

  it('his profile shows a notice with a way to the content settings in place of a hidden photo, and reveals a blurred one on a tap', async () => {
    const user = me();
    signInStored(user);
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/users/u2': () =>
        json(
          200,
          publicProfile({
            photos: [
              { id: 'p1', url: null, width: 800, height: 1000, hidden: 'explicit' },
              { id: 'p2', url: '/files/photos/u2/p2.webp', width: 800, height: 1000, blurred: true },
            ],
          }),
        ),
    });
    start('/profile/u2');
    const gallery = await screen.findByRole('region', { name: 'Photos of Alex' });
    const notice = within(gallery).getByRole('img', { name: 'Alex, photo 1 of 2: hidden' });
    expect(within(notice).getByText('Photo hidden')).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Content settings' }).getAttribute('href')).toBe('/settings/safety');
    const reveal = within(gallery).getByRole('button', { name: 'Sensitive photo, blurred. Tap to reveal' });
    expect(within(reveal).getByRole('img', { name: 'Alex, photo 2 of 2' }).className).toContain('blur-2xl');
    fireEvent.click(reveal);
    const shown = within(gallery).getByRole('img', { name: 'Alex, photo 2 of 2' });
    expect(shown.className).not.toContain('blur');
    expect(shown.getAttribute('src')).toBe('/files/photos/u2/p2.webp');
  });
});
