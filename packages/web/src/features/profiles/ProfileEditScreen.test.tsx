import { DEFAULT_DATING_PROFILE, DEFAULT_NOW_PROFILE } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const user = me({
  bio: 'Old bio',
  photos: [
    { id: 'ph1', url: '/p1.webp', width: 10, height: 10 },
    { id: 'ph2', url: '/p2.webp', width: 10, height: 10 },
    { id: 'ph3', url: '/p3.webp', width: 10, height: 10 },
  ],
  datingProfile: {
    ...DEFAULT_DATING_PROFILE,
    bio: 'Old bio',
    prompts: [{ promptId: 'p1', question: 'I geek out on...', answer: 'Maps' }],
  },
  nowProfile: { ...DEFAULT_NOW_PROFILE, quickStats: { build: null, height: 180 } },
});

beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('profile edit /profile/edit', () => {
  it('sends only what changed, bio and interests in both of their places', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () => json(200, me({ ...user, bio: 'New bio' })),
    });
    start('/profile/edit');
    fireEvent.change(await screen.findByLabelText('Bio'), { target: { value: '  New bio ' } });
    const interests = screen.getByLabelText('Interests');
    fireEvent.change(interests, { target: { value: 'Sailing' } });
    fireEvent.keyDown(interests, { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Add Hiking' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Sailing' }));
    fireEvent.click(screen.getByRole('switch', { name: /Show me in Hookup/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile saved')).toBeTruthy();
    expect(calls.find((c) => c.key === 'PATCH /api/v1/me')?.body).toEqual({
      bio: 'New bio',
      interests: ['Hiking'],
      datingProfile: { bio: 'New bio', interests: ['Hiking'] },
      modeVisibility: { showInNow: true },
    });
  });

  it('keeps the height when the units change and sends it in centimetres', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () => json(200, user),
    });
    start('/profile/edit');
    expect(((await screen.findByLabelText('Feet')) as HTMLInputElement).value).toBe('5');
    fireEvent.click(screen.getByRole('radio', { name: 'cm' }));
    const cm = screen.getByLabelText('Centimetres') as HTMLInputElement;
    expect(cm.value).toBe('180');
    fireEvent.change(cm, { target: { value: '185' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Profile saved');
    expect(calls.find((c) => c.key === 'PATCH /api/v1/me')?.body).toEqual({
      preferences: { units: 'metric' },
      nowProfile: { quickStats: { height: 185, build: null } },
    });
  });

  it("shows the server's field errors beside the fields", async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'PATCH /api/v1/me': () =>
        json(400, { error: 'invalid_input', message: 'Check your profile.', fields: { displayName: 'That name is taken.' } }),
    });
    start('/profile/edit');
    fireEvent.change(await screen.findByLabelText('Display name'), { target: { value: 'Admin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('That name is taken.')).toBeTruthy();
    expect(screen.getByLabelText('Display name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Check your profile.')).toBeTruthy();
  });

  it('refuses an empty prompt answer before asking the server', async () => {
    const calls = serve({ 'GET /api/v1/auth/session': session(user) });
    start('/profile/edit');
    fireEvent.change(await screen.findByLabelText('I geek out on...'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Write an answer to the prompt.')).toBeTruthy();
    expect(calls.map((c) => c.key)).not.toContain('PATCH /api/v1/me');
  });

  it('shows the photo count against the tier limit and the upgrade prompt at the limit', async () => {
    serve({ 'GET /api/v1/auth/session': session(user) });
    start('/profile/edit');
    expect(await screen.findByText('3 of 3 photos')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add more photos' }));
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/settings/premium');
    expect(screen.getByText(/Premium/)).toBeTruthy();
  });

  it("marks a photo moderation holds 'In review', and only that one", async () => {
    const held = { ...user, photos: [user.photos[0]!, { ...user.photos[1]!, inReview: true }, user.photos[2]!] };
    signInStored(held);
    serve({ 'GET /api/v1/auth/session': session(held) });
    start('/profile/edit');
    expect(await screen.findByText('In review')).toBeTruthy();
    expect(screen.getAllByText('In review')).toHaveLength(1);
    const tile = screen.getByRole('img', { name: 'You, 2 of 3' }).closest('li');
    expect(tile?.textContent).toContain('In review');
  });

  it('reorders photos through the server', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'PUT /api/v1/me/photos/order': () => json(200, { ...user, photos: [user.photos[1], user.photos[0], user.photos[2]] }),
    });
    start('/profile/edit');
    fireEvent.click(await screen.findByRole('button', { name: 'Move photo 2 earlier' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'You, 1 of 3' }).getAttribute('src')).toBe('/p2.webp'));
    expect(calls.find((c) => c.key === 'PUT /api/v1/me/photos/order')?.body).toEqual({ photoIds: ['ph2', 'ph1', 'ph3'] });
  });

  it('chooses a prompt on the selector screen and comes back with the draft intact', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/prompts': () =>
        json(200, [
          { id: 'p1', text: 'I geek out on...', category: 'Interests', isActive: true, usageCount: 1, likeCount: 0 },
          { id: 'p2', text: 'My ideal Sunday looks like...', category: 'Lifestyle', isActive: true, usageCount: 0, likeCount: 0 },
        ]),
      'PATCH /api/v1/me': () => json(200, user),
    });
    start('/profile/edit');
    fireEvent.change(await screen.findByLabelText('Display name'), { target: { value: 'Samuel' } });
    fireEvent.click(screen.getByRole('link', { name: 'Add a prompt' }));
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Search prompts' }), { target: { value: 'sunday' } });
    expect(screen.queryByRole('button', { name: 'I geek out on...' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'My ideal Sunday looks like...' }));
    fireEvent.click(screen.getByRole('link', { name: 'Done' }));
    fireEvent.change(await screen.findByLabelText('My ideal Sunday looks like...'), { target: { value: 'Brunch' } });
    expect((screen.getByLabelText('Display name') as HTMLInputElement).value).toBe('Samuel');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Profile saved');
    expect(calls.find((c) => c.key === 'PATCH /api/v1/me')?.body).toEqual({
      displayName: 'Samuel',
      datingProfile: {
        prompts: [
          { promptId: 'p1', question: 'I geek out on...', answer: 'Maps' },
          { promptId: 'p2', question: 'My ideal Sunday looks like...', answer: 'Brunch' },
        ],
      },
    });
  });
});
