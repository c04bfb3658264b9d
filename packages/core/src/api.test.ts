import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { updateMeBody } from './api.ts';

const messages = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? [];

describe('updateMeBody', () => {
  it('accepts an empty patch', () => {
    expect(updateMeBody.parse({})).toEqual({});
  });

  it('accepts and trims known fields', () => {
    expect(updateMeBody.parse({ displayName: '  Sam ', bio: ' hi ', age: 30, interests: [' hiking '] })).toEqual({
      displayName: 'Sam',
      bio: 'hi',
      age: 30,
      interests: ['hiking'],
    });
  });

  it('rejects unknown keys (strict)', () => {
    for (const key of ['email', 'subscriptionTier', 'isBetaUser', 'hasLifetimePremium', 'anonymousId', 'role', 'uid']) {
      const r = updateMeBody.safeParse({ [key]: 'x' });
      expect(r.success, key).toBe(false);
      expect(r.error?.issues[0]?.code).toBe('unrecognized_keys');
    }
    expect(updateMeBody.safeParse({ displayName: 'Sam', subscriptionTier: 'platinum' }).success).toBe(false);
  });

  it('rejects any key outside the schema (property)', () => {
    const known = new Set(Object.keys(updateMeBody.shape));
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((k) => !known.has(k) && k !== '__proto__'),
        fc.jsonValue(),
        (key, value) => !updateMeBody.safeParse({ [key]: value }).success,
      ),
    );
  });

  it('rejects ages under 18 with the spec message', () => {
    for (const age of [17, 0, -1]) {
      const r = updateMeBody.safeParse({ age });
      expect(r.success, String(age)).toBe(false);
      expect(messages(r)).toContain('You must be 18 or older to use FMK.');
    }
  });

  it('accepts ages 18 to 99 and rejects the rest (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 200 }), (age) => {
        expect(updateMeBody.safeParse({ age }).success).toBe(age >= 18 && age <= 99);
      }),
    );
    expect(messages(updateMeBody.safeParse({ age: 100 }))).toContain('Enter a real age.');
  });

  it('rejects fractional and non-numeric ages', () => {
    expect(messages(updateMeBody.safeParse({ age: 25.5 }))).toContain('Age must be a whole number.');
    expect(messages(updateMeBody.safeParse({ age: '25' }))).toContain('Enter your age.');
  });

  it('rejects a blank display name and overlong fields', () => {
    expect(messages(updateMeBody.safeParse({ displayName: '   ' }))).toContain('Enter a display name.');
    expect(updateMeBody.safeParse({ displayName: 'x'.repeat(40) }).success).toBe(true);
    expect(updateMeBody.safeParse({ displayName: 'x'.repeat(41) }).success).toBe(false);
    expect(updateMeBody.safeParse({ bio: 'x'.repeat(1001) }).success).toBe(false);
    expect(updateMeBody.safeParse({ interests: Array(21).fill('a') }).success).toBe(false);
  });

  it('validates modes against the enums', () => {
    expect(updateMeBody.safeParse({ appPreferences: { appMode: 'marry' } }).success).toBe(true);
    // The profile mode changes only through POST /me/mode, which logs the switch.
    expect(updateMeBody.safeParse({ currentMode: 'now' }).success).toBe(false);
    expect(updateMeBody.safeParse({ appPreferences: { appMode: 'kiss' } }).success).toBe(false);
  });

  it('accepts partial nested profiles', () => {
    expect(updateMeBody.safeParse({ preferences: { maxDistance: 10 }, nowProfile: { position: 'Top' } }).success).toBe(true);
    expect(updateMeBody.safeParse({ preferences: { maxDistance: 0 } }).success).toBe(false);
    expect(updateMeBody.safeParse({ nowProfile: { position: 'Sideways' } }).success).toBe(false);
  });
});
