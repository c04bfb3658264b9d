import { AccountMessages } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config, json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { newPasswordErrors } from './ResetPasswordScreen.tsx';

const TOKEN = 'reset_abcdefghijklmnopqrstuvwxyz0123456789ABCDE';
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("'Forgot password?' on /auth", () => {
  it('mails a reset link and shows the same words whatever the address', async () => {
    const calls = serve({
      'GET /api/v1/config': () => json(200, config),
      'POST /api/v1/auth/password/forgot': () => json(202, { message: AccountMessages.resetRequested }),
    });
    start('/auth');
    fireEvent.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter your email address.');
    type('Email', 'Sam@Example.com ');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(screen.getByText(AccountMessages.resetRequested)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/v1/auth/password/forgot')?.body).toEqual({ email: 'Sam@Example.com' });
    fireEvent.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
  });

  it("shows the server's limit", async () => {
    serve({
      'GET /api/v1/config': () => json(200, config),
      'POST /api/v1/auth/password/forgot': () => json(429, { error: 'rate_limited', message: AccountMessages.tooManyRequests }),
    });
    start('/auth?mode=forgot');
    await screen.findByLabelText('Email');
    type('Email', 'sam@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(AccountMessages.tooManyRequests);
  });
});

describe('the reset link page (/reset-password)', () => {
  it('checks the two passwords, sets the new one, then offers to sign in', async () => {
    const calls = serve({
      'GET /api/v1/config': () => json(200, config),
      'POST /api/v1/auth/password/reset': () => json(200, { email: 'sam@example.com' }),
    });
    start(`/reset-password#token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    type('New password', 'short');
    type('New password again', 'other');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByText('Passwords must be at least 8 characters.')).toBeTruthy();
    type('New password', 'a brand new passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(screen.getByText("The two passwords don't match.")).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/v1/auth/password/reset')).toBe(false);

    type('New password again', 'a brand new passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/v1/auth/password/reset')?.body).toEqual({
      token: TOKEN,
      password: 'a brand new passphrase',
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
  });

  it('says when the link expired and leads to a new one', async () => {
    serve({
      'GET /api/v1/config': () => json(200, config),
      'POST /api/v1/auth/password/reset': () => json(410, { error: 'link_expired', message: AccountMessages.linkExpired }),
    });
    start(`/reset-password#token=${TOKEN}`);
    await screen.findByLabelText('New password');
    type('New password', 'a brand new passphrase');
    type('New password again', 'a brand new passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(AccountMessages.linkExpired);
    expect(screen.getByRole('link', { name: 'Get a new link' }).getAttribute('href')).toBe('/auth?mode=forgot');
  });

  it('knows what a good pair of new passwords is', () => {
    expect(newPasswordErrors('', '')).toEqual({ password: 'Enter a new password.' });
    expect(newPasswordErrors('long enough', '')).toEqual({ repeat: 'Enter the new password again.' });
    expect(newPasswordErrors('long enough', 'long enough')).toEqual({});
  });
});

describe("settings' 'Change password'", () => {
  it('needs the current password, shows a wrong one on its field, and closes with a toast when done', async () => {
    const user = me();
    signInStored(user);
    let wrong = true;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'POST /api/v1/auth/password/change': () =>
        wrong
          ? json(400, {
              error: 'wrong_password',
              message: AccountMessages.wrongPassword,
              fields: { currentPassword: AccountMessages.wrongPassword },
            })
          : new Response(null, { status: 204 }),
    });
    start('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Change password' }));
    const sheet = screen.getByRole('dialog', { name: 'Change password' });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Save new password' }));
    expect(within(sheet).getByText('Enter your current password.')).toBeTruthy();

    type('Current password', 'not my password');
    type('New password', 'a brand new passphrase');
    type('New password again', 'a brand new passphrase');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Save new password' }));
    expect(await within(sheet).findByText(AccountMessages.wrongPassword)).toBeTruthy();

    wrong = false;
    type('Current password', 'correct horse battery');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('Your other devices are signed out.')).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /api/v1/auth/password/change').at(-1)?.body).toEqual({
      currentPassword: 'correct horse battery',
      newPassword: 'a brand new passphrase',
    });
  });
});
