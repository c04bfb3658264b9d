import { PhoneMessages, type PhoneStatus } from '@fmk/core';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { VERIFIED_LABEL } from '../../ui/VerifiedBadge.tsx';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PHONE = '+14155550123';
const none: PhoneStatus = { phone: null, verified: false, pending: null };
const pending = (resendInMs: number): PhoneStatus => ({
  phone: PHONE,
  verified: false,
  pending: {
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    resendAt: new Date(Date.now() + resendInMs).toISOString(),
  },
});

async function openAccount() {
  start('/settings');
  return screen.findByRole('region', { name: 'Account' });
}

describe("settings' phone number", () => {
  it('takes a number, refuses one without a country code before asking, then shows the code box', async () => {
    const user = me();
    signInStored(user);
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/phone': () => json(200, none),
      'POST /api/v1/me/phone': () => json(200, pending(60_000)),
      'GET /api/v1/me': () => json(200, user),
    });
    const account = await openAccount();
    const number = await within(account).findByLabelText('Mobile number');
    expect(number.getAttribute('type')).toBe('tel');
    expect(number.getAttribute('autocomplete')).toBe('tel');
    expect(within(account).getByText('No number yet')).toBeTruthy();

    fireEvent.change(number, { target: { value: '415 555 0123' } });
    fireEvent.click(within(account).getByRole('button', { name: 'Text me a code' }));
    expect(within(account).getByRole('alert').textContent).toBe(PhoneMessages.invalidNumber);
    expect(calls.some((c) => c.key === 'POST /api/v1/me/phone')).toBe(false);

    fireEvent.change(number, { target: { value: '+1 (415) 555-0123' } });
    fireEvent.click(within(account).getByRole('button', { name: 'Text me a code' }));
    const code = await within(account).findByLabelText('6-digit code');
    expect(calls.find((c) => c.key === 'POST /api/v1/me/phone')?.body).toEqual({ phone: PHONE });
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(within(account).getByText('Not verified')).toBeTruthy();
    // The resend waits its minute, counting down.
    const resend = within(account).getByRole('button', { name: /^Resend code in \d+ s$/ });
    expect((resend as HTMLButtonElement).disabled).toBe(true);
  });

  it("says a wrong code in the server's words, then verifies and shows the badge", async () => {
    const user = me();
    signInStored(user);
    let tries = 0;
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/phone': () => json(200, pending(0)),
      'POST /api/v1/me/phone/verify': () => {
        tries += 1;
        return tries === 1
          ? json(400, { error: 'wrong_code', message: PhoneMessages.wrongCode(4), fields: { code: PhoneMessages.wrongCode(4) } })
          : json(200, { phone: PHONE, verified: true, pending: null });
      },
      'GET /api/v1/me': () => json(200, user),
    });
    const account = await openAccount();
    const code = await within(account).findByLabelText('6-digit code');
    const verify = within(account).getByRole('button', { name: 'Verify' }) as HTMLButtonElement;
    // Letters and extra digits never reach the box; the button waits for six digits.
    fireEvent.change(code, { target: { value: '12a34' } });
    expect((code as HTMLInputElement).value).toBe('1234');
    expect(verify.disabled).toBe(true);
    fireEvent.change(code, { target: { value: '1234567' } });
    expect((code as HTMLInputElement).value).toBe('123456');
    fireEvent.click(verify);
    expect(await within(account).findByText(PhoneMessages.wrongCode(4))).toBeTruthy();

    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(within(account).getByRole('button', { name: 'Verify' }));
    expect(await within(account).findByText('Verified')).toBeTruthy();
    expect(within(account).getByTitle(VERIFIED_LABEL)).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /api/v1/me/phone/verify').map((c) => c.body)).toEqual([
      { code: '123456' },
      { code: '654321' },
    ]);
    expect(within(account).getByRole('button', { name: 'Remove number' })).toBeTruthy();
  });

  it('resends once the wait is over, and shows the limit when the server refuses', async () => {
    const user = me();
    signInStored(user);
    let sends = 0;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/phone': () => json(200, pending(0)),
      'POST /api/v1/me/phone': () => {
        sends += 1;
        return sends === 1 ? json(200, pending(0)) : json(429, { error: 'rate_limited', message: PhoneMessages.tooManyTexts });
      },
      'GET /api/v1/me': () => json(200, user),
    });
    const account = await openAccount();
    fireEvent.click(await within(account).findByRole('button', { name: 'Resend code' }));
    expect(await within(account).findByText('We sent a new code.')).toBeTruthy();
    fireEvent.click(within(account).getByRole('button', { name: 'Resend code' }));
    expect(await within(account).findByText(PhoneMessages.tooManyTexts)).toBeTruthy();
  });

  it('removes a verified number', async () => {
    const user = me();
    signInStored(user);
    const calls = serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/phone': () => json(200, { phone: PHONE, verified: true, pending: null }),
      'DELETE /api/v1/me/phone': () => json(200, none),
      'GET /api/v1/me': () => json(200, user),
    });
    const account = await openAccount();
    fireEvent.click(await within(account).findByRole('button', { name: 'Remove number' }));
    expect(await within(account).findByLabelText('Mobile number')).toBeTruthy();
    expect(within(account).queryByText('Verified')).toBeNull();
    expect(calls.some((c) => c.key === 'DELETE /api/v1/me/phone')).toBe(true);
  });

  it('shows an error with a retry when the number cannot be loaded', async () => {
    const user = me();
    signInStored(user);
    let fail = true;
    serve({
      'GET /api/v1/auth/session': session(user),
      'GET /api/v1/me/phone': () => (fail ? json(503, { error: 'unavailable', message: 'Server busy' }) : json(200, none)),
    });
    const account = await openAccount();
    expect(await within(account).findByText('Server busy', {}, { timeout: 12_000 })).toBeTruthy();
    fail = false;
    fireEvent.click(within(account).getByRole('button', { name: 'Try again' }));
    expect(await within(account).findByLabelText('Mobile number')).toBeTruthy();
  }, 20_000);

  it('verifies with the code the browser read from the text (WebOTP), where it offers one', async () => {
    const user = me();
    signInStored(user);
    const get = vi.fn(async () => ({ type: 'otp', code: '246810' }));
    vi.stubGlobal('OTPCredential', class {});
    const had = Object.getOwnPropertyDescriptor(navigator, 'credentials');
    Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
    try {
      const calls = serve({
        'GET /api/v1/auth/session': session(user),
        'GET /api/v1/me/phone': () => json(200, pending(30_000)),
        'POST /api/v1/me/phone/verify': () => json(200, { phone: PHONE, verified: true, pending: null }),
        'GET /api/v1/me': () => json(200, user),
      });
      const account = await openAccount();
      expect(await within(account).findByText('Verified')).toBeTruthy();
      expect(get).toHaveBeenCalledWith(expect.objectContaining({ otp: { transport: ['sms'] } }));
      expect(calls.filter((c) => c.key === 'POST /api/v1/me/phone/verify').map((c) => c.body)).toEqual([{ code: '246810' }]);
    } finally {
      if (had) Object.defineProperty(navigator, 'credentials', had);
      else Reflect.deleteProperty(navigator, 'credentials');
    }
  });
});
