import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const user = me({ currentMode: 'dating' });

beforeEach(() => {
  localStorage.clear();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('manual profile-mode switch', () => {
  it('asks the server, shows the toast with its description and dims the page for a moment', async () => {
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'POST /api/v1/me/mode': () => json(200, me({ currentMode: 'now' })),
    });
    start('/grid');
    const hookup = await screen.findByRole('button', { name: 'Hookup' });
    expect(screen.getByRole('button', { name: 'Dating' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(hookup);
    const main = screen.getByRole('main');
    expect(main.style.opacity).toBe('0.7');
    expect(await screen.findByText('Switched to Hookup Mode')).toBeTruthy();
    expect(screen.getByText('Showing who is around and up for it now.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/v1/me/mode')?.body).toEqual({ mode: 'now', trigger: 'manual' });
    expect(screen.getByRole('button', { name: 'Hookup' }).getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(main.style.opacity).toBe('1'));
  });

  it('says so when the switch fails and stays in the old mode', async () => {
    serve({
      'GET /api/v1/auth/session': session(user),
      'POST /api/v1/me/mode': () => json(400, { error: 'invalid_input', message: 'Mode not allowed.' }),
    });
    start('/grid');
    fireEvent.click(await screen.findByRole('button', { name: 'Hookup' }));
    expect(await screen.findByText('Mode not allowed.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Dating' }).getAttribute('aria-pressed')).toBe('true');
  });
});
