import { Messages } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("settings' 'Change email'", () => {
  it('needs the new address and the password, shows a banned address refused, then waits for the link', async () => {
    const user = me();
    signInStored(user);
    let banned = true;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'POST /api/v1/auth/email/change': () =>
        banned
          ? json(403, { error: 'email_banned', message: Messages.newEmailBanned, fields: { email: Messages.newEmailBanned } })
          : json(200, me({ pendingEmail: 'new@example.com' })),
      'POST /api/v1/auth/email/cancel': () => json(200, me()),
    });
    start('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Change email' }));
    const sheet = screen.getByRole('dialog', { name: 'Change email' });
    fireEvent.click(within(sheet).getByRole('button', { name: 'Send link' }));
    expect(within(sheet).getByText('Enter the new email address.')).toBeTruthy();
    expect(within(sheet).getByText('Enter your password.')).toBeTruthy();

    type('New email', 'banned@example.com');
    type('Your password', 'correct horse battery');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Send link' }));
    expect(await within(sheet).findByText(Messages.newEmailBanned)).toBeTruthy();

    banned = false;
    type('New email', 'new@example.com');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText('Check your new inbox')).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /api/v1/auth/email/change').at(-1)?.body).toEqual({
      email: 'new@example.com',
      password: 'correct horse battery',
    });
    // The account keeps its address until the link is opened; the change can be dropped.
    const account = screen.getByRole('region', { name: 'Account' });
    expect(within(account).getByText('sam@example.com')).toBeTruthy();
    expect(within(account).getByText('new@example.com')).toBeTruthy();
    fireEvent.click(within(account).getByRole('button', { name: 'Cancel change' }));
    await vi.waitFor(() => expect(within(account).queryByText('new@example.com')).toBeNull());
  });
});

describe('the confirmation link of a new address', () => {
  it('says the address changed', async () => {
    serve({
      'GET /api/v1/config': () => json(200, { googleEnabled: false, vapidPublicKey: null, beta: { eligible: true } }),
      'POST /api/v1/auth/verify': () => json(200, { email: 'new@example.com', changed: true }),
    });
    start('/verify#token=change_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(await screen.findByRole('heading', { name: 'Email changed' })).toBeTruthy();
    expect(screen.getByText('new@example.com')).toBeTruthy();
  });
});
