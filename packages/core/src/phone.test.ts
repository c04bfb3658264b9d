import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePhone, PhoneMessages, phoneNumberSchema, verifyPhoneBody } from './phone.ts';

describe('phone numbers in E.164', () => {
  it('keeps what people type around the digits out, and refuses what is not E.164', () => {
    expect(normalizePhone('+1 (415) 555-0123')).toBe('+14155550123');
    expect(normalizePhone('+44 20.7946.0958')).toBe('+442079460958');
    for (const bad of ['4155550123', '+0415555012', '+1 415', '', '+', '+1234567890123456', '+1415abc0123', '++14155550123']) {
      expect(normalizePhone(bad)).toBeNull();
    }
    expect(phoneNumberSchema.safeParse('phone').error?.issues[0]?.message).toBe(PhoneMessages.invalidNumber);
  });

  it('accepts every + and 7 to 15 digits not starting with 0, however spaced', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.stringMatching(/^\d{6,14}$/),
        fc.array(fc.constantFrom(' ', '-', '.')),
        (first, rest, seps) => {
          const digits = `${first}${rest}`;
          const spaced = `+${digits
            .split('')
            .map((d, i) => (seps[i] ?? '') + d)
            .join('')}`;
          expect(normalizePhone(spaced)).toBe(`+${digits}`);
        },
      ),
    );
  });

  it('takes a code of six digits, spaces dropped, and nothing else', () => {
    expect(verifyPhoneBody.parse({ code: '123 456' })).toEqual({ code: '123456' });
    for (const bad of ['12345', '1234567', 'abcdef', '12 34 5']) {
      expect(verifyPhoneBody.safeParse({ code: bad }).error?.issues[0]?.message).toBe(PhoneMessages.invalidCode);
    }
  });
});
