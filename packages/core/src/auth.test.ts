import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signInBody, signUpBody, TOKEN_CHECK_INTERVAL_MS, TOKEN_EXPIRY_MARGIN_MS, tokenCheck } from './auth.ts';
import { HOUR, MINUTE } from './clock.ts';

const now = new Date('2025-06-15T12:00:00.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('auth timing constants', () => {
  it('checks every 5 minutes with a 5 minute margin (spec section 9)', () => {
    expect(TOKEN_CHECK_INTERVAL_MS).toBe(5 * MINUTE);
    expect(TOKEN_EXPIRY_MARGIN_MS).toBe(5 * MINUTE);
  });
});

describe('tokenCheck', () => {
  it('marks a missing token unauthenticated', () => {
    expect(tokenCheck(null, now)).toBe('unauthenticated');
  });

  it('logs out an expired token', () => {
    expect(tokenCheck(at(-HOUR), now)).toBe('logout');
    expect(tokenCheck(at(-1), now)).toBe('logout');
    expect(tokenCheck(at(0), now)).toBe('logout');
  });

  it('logs out a token expiring within 5 minutes, including exactly 5 minutes', () => {
    expect(tokenCheck(at(MINUTE), now)).toBe('logout');
    expect(tokenCheck(at(5 * MINUTE - 1), now)).toBe('logout');
    expect(tokenCheck(at(5 * MINUTE), now)).toBe('logout');
  });

  it('keeps a token expiring later than 5 minutes', () => {
    expect(tokenCheck(at(5 * MINUTE + 1), now)).toBe('ok');
    expect(tokenCheck(at(HOUR), now)).toBe('ok');
  });

  it('is ok exactly when more than the margin remains (property over offsets)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -7 * 24 * HOUR, max: 7 * 24 * HOUR }), (offset) => {
        expect(tokenCheck(at(offset), now)).toBe(offset > TOKEN_EXPIRY_MARGIN_MS ? 'ok' : 'logout');
      }),
    );
  });

  it('depends only on the time remaining, not on the absolute time (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.integer({ min: -HOUR, max: HOUR }),
        (when, offset) => tokenCheck(new Date(when.getTime() + offset), when) === tokenCheck(at(offset), now),
      ),
    );
  });
});

describe('signUpBody', () => {
  it('lowercases and trims the email', () => {
    expect(signUpBody.parse({ email: '  Foo.Bar@Example.COM\t', password: 'password1' })).toEqual({
      email: 'foo.bar@example.com',
      password: 'password1',
    });
  });

  it('rejects passwords shorter than 8 characters', () => {
    for (const password of ['', 'a', '1234567']) {
      const r = signUpBody.safeParse({ email: 'a@example.com', password });
      expect(r.success, password).toBe(false);
      expect(messages(r)).toContain('Passwords must be at least 8 characters.');
    }
  });

  it('accepts exactly 8 characters and does not trim passwords', () => {
    expect(signUpBody.parse({ email: 'a@example.com', password: '12345678' }).password).toBe('12345678');
    expect(signUpBody.parse({ email: 'a@example.com', password: ' pass word ' }).password).toBe(' pass word ');
  });

  it('rejects passwords over 200 characters', () => {
    expect(signUpBody.safeParse({ email: 'a@example.com', password: 'x'.repeat(200) }).success).toBe(true);
    expect(messages(signUpBody.safeParse({ email: 'a@example.com', password: 'x'.repeat(201) }))).toContain(
      'Passwords must be at most 200 characters.',
    );
  });

  it('accepts a password exactly when it has 8 to 200 characters (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 220 }), (password) => {
        expect(signUpBody.safeParse({ email: 'a@example.com', password }).success).toBe(
          password.length >= 8 && password.length <= 200,
        );
      }),
    );
  });

  it('rejects missing, blank and malformed emails with a readable message', () => {
    expect(messages(signUpBody.safeParse({ password: 'password1' }))).toContain('Enter your email address.');
    expect(messages(signUpBody.safeParse({ email: '   ', password: 'password1' }))).toContain('Enter your email address.');
    expect(messages(signUpBody.safeParse({ email: 'not-an-email', password: 'password1' }))).toContain(
      'Enter a valid email address.',
    );
    expect(messages(signUpBody.safeParse({ email: 'a@example.com' }))).toContain('Enter a password.');
  });

  it('normalises any valid email to lowercase without surrounding space (property)', () => {
    fc.assert(
      fc.property(fc.emailAddress({ size: 'small' }), (email) => {
        const r = signUpBody.safeParse({ email: ` ${email.toUpperCase()} `, password: 'password1' });
        if (r.success) expect(r.data.email).toBe(r.data.email.trim().toLowerCase());
      }),
    );
  });
});

describe('signInBody', () => {
  it('lowercases and trims the email', () => {
    expect(signInBody.parse({ email: ' User@Example.com ', password: 'x' }).email).toBe('user@example.com');
  });

  it('requires a password but not 8 characters of it (accounts predate the rule)', () => {
    expect(signInBody.safeParse({ email: 'a@example.com', password: 'short' }).success).toBe(true);
    expect(messages(signInBody.safeParse({ email: 'a@example.com', password: '' }))).toContain('Enter your password.');
    expect(messages(signInBody.safeParse({ email: 'a@example.com' }))).toContain('Enter your password.');
  });
});
