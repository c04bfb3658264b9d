import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BanRecord, banStatus } from './bans.ts';
import { DAY } from './clock.ts';
import { banNotice } from './messages.ts';

const now = new Date('2025-06-15T12:00:00.000Z');
const temp = (expiresAt: Date | null, reason = 'spam'): BanRecord => ({ isPermanent: false, expiresAt, reason });
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

describe('banStatus', () => {
  it('is not banned and not expired when there is no record', () => {
    expect(banStatus(null, now)).toEqual({ banned: false, expired: false });
    expect(banStatus(undefined, now)).toEqual({ banned: false, expired: false });
  });

  it('keeps a permanent ban in force forever, whatever its expiresAt says', () => {
    const perm: BanRecord = { isPermanent: true, expiresAt: null, reason: 'abuse' };
    expect(banStatus(perm, now)).toEqual({ banned: true, ban: perm });
    const permWithPastExpiry: BanRecord = { isPermanent: true, expiresAt: at(-DAY), reason: 'abuse' };
    expect(banStatus(permWithPastExpiry, now)).toEqual({ banned: true, ban: permWithPastExpiry });
    expect(banStatus(perm, new Date('2999-01-01T00:00:00Z')).banned).toBe(true);
  });

  it('keeps a temporary ban in force before its expiry, and returns the record', () => {
    const ban = temp(at(DAY));
    expect(banStatus(ban, now)).toEqual({ banned: true, ban });
    expect(banStatus(temp(at(1)), now).banned).toBe(true);
  });

  it('reports an expired temporary ban as expired so the caller deletes it', () => {
    expect(banStatus(temp(at(-DAY)), now)).toEqual({ banned: false, expired: true });
    expect(banStatus(temp(at(-1)), now)).toEqual({ banned: false, expired: true });
  });

  it('treats the exact expiry instant as expired', () => {
    expect(banStatus(temp(at(0)), now)).toEqual({ banned: false, expired: true });
  });

  it('treats a temporary ban with no expiry as expired', () => {
    expect(banStatus(temp(null), now)).toEqual({ banned: false, expired: true });
  });

  it('is in force exactly while now < expiresAt (property over offsets)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -365 * DAY, max: 365 * DAY }), (offset) => {
        const s = banStatus(temp(at(offset)), now);
        if (offset > 0) expect(s).toEqual({ banned: true, ban: temp(at(offset)) });
        else expect(s).toEqual({ banned: false, expired: true });
      }),
    );
  });

  it('permanent bans are in force at any time (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
        fc.option(fc.date({ noInvalidDate: true })),
        (when, expiresAt) => banStatus({ isPermanent: true, expiresAt, reason: 'x' }, when).banned,
      ),
    );
  });
});

describe('banNotice', () => {
  it('names a permanent ban and its reason', () => {
    expect(banNotice({ isPermanent: true, expiresAt: null, reason: 'Harassment' })).toBe(
      'Your email is permanently banned. Reason: Harassment',
    );
  });

  it('calls a permanent ban permanent even if it carries an expiry', () => {
    expect(banNotice({ isPermanent: true, expiresAt: new Date('2030-01-01T00:00:00Z'), reason: 'X' })).toBe(
      'Your email is permanently banned. Reason: X',
    );
  });

  it('gives the expiry date of a temporary ban as YYYY-MM-DD', () => {
    expect(banNotice({ isPermanent: false, expiresAt: new Date('2025-07-04T15:30:00Z'), reason: 'Spam' })).toBe(
      'Your email is banned until 2025-07-04. Reason: Spam',
    );
  });

  it('uses the UTC date at day boundaries', () => {
    expect(banNotice({ isPermanent: false, expiresAt: new Date('2025-12-31T23:59:59.999Z'), reason: 'X' })).toBe(
      'Your email is banned until 2025-12-31. Reason: X',
    );
    expect(banNotice({ isPermanent: false, expiresAt: new Date('2026-01-01T00:00:00Z'), reason: 'X' })).toBe(
      'Your email is banned until 2026-01-01. Reason: X',
    );
  });

  it('always has the temporary shape for a temporary ban (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }),
        fc.string(),
        (expiresAt, reason) => {
          expect(banNotice({ isPermanent: false, expiresAt, reason })).toMatch(
            /^Your email is banned until \d{4}-\d{2}-\d{2}\. Reason: [\s\S]*$/,
          );
          expect(banNotice({ isPermanent: false, expiresAt, reason }).endsWith(`Reason: ${reason}`)).toBe(true);
        },
      ),
    );
  });
});
