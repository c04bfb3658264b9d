import { AccountMessages } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config, json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the confirmation link page (/verify)', () => {
  it('confirms the address from the link, once, and sends a signed-out person to sign in', async () => {
    const calls = serve({
      'GET /api/v1/config': () => json(200, config),
      'POST /api/v1/auth/verify': () => json(200, { email: 'sam@example.com', changed: false }),
    });
    start(`/verify#token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Email confirmed' })).toBeTruthy();
    expect(screen.getByText('sam@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth');
    expect(calls.filter((c) => c.key === 'POST /api/v1/auth/verify')).toEqual([
      { key: 'POST /api/v1/auth/verify', body: { token: TOKEN } },
    ]);
  });

  it("says why a link didn't work, in the server's words", async () => {
    serve({
      'GET /api/v1/config': () => json(200, config),
      'POST /api/v1/auth/verify': () => json(410, { error: 'link_expired', message: AccountMessages.linkExpired }),
    });
    start('/verify#token=expired_token_0123456789abcdef');
    expect(await screen.findByRole('heading', { name: "This link didn't work" })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(AccountMessages.linkExpired);
    expect(screen.getByText('Sign in to send yourself a new link.')).toBeTruthy();
  });

  it('treats a link without a token as unknown, without asking the server', async () => {
    const calls = serve({ 'GET /api/v1/config': () => json(200, config) });
    start('/verify');
    expect((await screen.findByRole('alert')).textContent).toBe(AccountMessages.linkUnknown);
    expect(calls.some((c) => c.key.includes('/auth/verify'))).toBe(false);
  });

  it('lets a signed-in person ask for a new link when this one expired', async () => {
    const user = me({ emailVerified: false });
    signInStored(user);
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'POST /api/v1/auth/verify': () => json(410, { error: 'link_expired', message: AccountMessages.linkExpired }),
      'POST /api/v1/auth/verify/resend': () => new Response(null, { status: 204 }),
    });
    start('/verify#token=expired_token_0123456789abcdef');
    fireEvent.click(await screen.findByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText((_, el) => el?.textContent === 'We sent a new link to sam@example.com.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/v1/auth/verify/resend')).toBe(true);
  });

  it('updates the signed-in record, so settings say confirmed', async () => {
    const user = me({ emailVerified: false });
    signInStored(user);
    serve({
      'GET /api/v1/auth/session': session(user),
      'POST /api/v1/auth/verify': () => json(200, { email: user.email, changed: false }),
      'GET /api/v1/me': () => json(200, me({ emailVerified: true })),
    });
    start(`/verify#token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Email confirmed' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Continue' }));
    const account = await screen.findByRole('region', { name: 'Account' });
    expect(await within(account).findByText('Confirmed')).toBeTruthy();
  });
});

describe("the 'Confirm your email' reminder", () => {
  it("shows an unconfirmed account 'Resend', sends a new link, and reports a refusal", async () => {
    const user = me({ emailVerified: false });
    signInStored(user);
    let refuse = false;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'POST /api/v1/auth/verify/resend': () =>
        refuse
          ? json(429, { error: 'rate_limited', message: AccountMessages.tooManyRequests })
          : new Response(null, { status: 204 }),
      // The account block's phone part, so its only alert is the one this test looks for.
      'GET /api/v1/me/phone': () => json(200, { phone: null, verified: false, pending: null }),
    });
    start('/settings');
    const banner = await screen.findByRole('region', { name: 'Confirm your email' });
    expect(within(banner).getByText('sam@example.com')).toBeTruthy();
    fireEvent.click(within(banner).getByRole('button', { name: 'Resend' }));
    expect((await within(banner).findByRole('status')).textContent).toMatch(/Check your inbox/);
    expect(calls.filter((c) => c.key === 'POST /api/v1/auth/verify/resend')).toHaveLength(1);

    // Settings' own button, refused by the server's limit: its words are shown.
    refuse = true;
    const account = screen.getByRole('region', { name: 'Account' });
    expect(within(account).getByText('Not confirmed')).toBeTruthy();
    fireEvent.click(within(account).getByRole('button', { name: 'Resend confirmation link' }));
    expect((await within(account).findByRole('alert')).textContent).toBe(AccountMessages.tooManyRequests);
  });

  it('can be hidden, and never shows for a confirmed account', async () => {
    const user = me({ emailVerified: false });
    signInStored(user);
    serve({ 'GET /api/v1/auth/session': session(user) });
    start('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Hide this reminder' }));
    expect(screen.queryByRole('region', { name: 'Confirm your email' })).toBeNull();
    cleanup();

    sessionStorage.clear();
    const confirmed = me();
    signInStored(confirmed);
    serve({ 'GET /api/v1/auth/session': session(confirmed) });
    start('/settings');
    expect(await screen.findByRole('region', { name: 'Account' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Confirm your email' })).toBeNull();
  });
});
