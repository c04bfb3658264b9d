import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { afterBetaJoin, type BetaSettings, DEFAULT_BETA_SETTINGS, isBetaEligible } from './beta.ts';

const open = (over: Partial<BetaSettings> = {}): BetaSettings => ({ ...DEFAULT_BETA_SETTINGS, enabled: true, ...over });
const closed = DEFAULT_BETA_SETTINGS; // disabled by default
const full = open({ maxUsers: 10, currentCount: 10 });
const PRIVILEGED = ['fmk.app', 'fmk-auth.example.com'];

describe('DEFAULT_BETA_SETTINGS', () => {
  it('matches spec section 9: disabled, 1000 users, lifetime premium and auto-close on', () => {
    expect(DEFAULT_BETA_SETTINGS).toEqual({
      enabled: false,
      maxUsers: 1000,
      currentCount: 0,
      lifetimePremium: true,
      autoClose: true,
    });
  });
});

describe('isBetaEligible', () => {
  it('always admits local hosts, with or without a port, whatever the settings', () => {
    const hosts = ['localhost', 'localhost:5173', 'LOCALHOST:3000', '127.0.0.1', '127.0.0.1:8080', '::1', '[::1]', '[::1]:3000'];
    for (const settings of [closed, full, open()]) {
      for (const h of hosts) expect(isBetaEligible(h, settings), h).toBe(true);
    }
  });

  it('admits local hosts with any port (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('localhost', '127.0.0.1', '[::1]'), fc.integer({ min: 0, max: 65535 }), (h, port) =>
        isBetaEligible(`${h}:${port}`, closed),
      ),
    );
  });

  it('does not mistake look-alike hosts for localhost', () => {
    for (const h of ['localhost.evil.com', 'evil-localhost', '127.0.0.2', '127.0.0.1.nip.io', '::2', '[::2]:3000']) {
      expect(isBetaEligible(h, closed), h).toBe(false);
    }
  });

  it('always admits privileged hosts, case-insensitively and with a port', () => {
    for (const settings of [closed, full]) {
      expect(isBetaEligible('fmk.app', settings, PRIVILEGED)).toBe(true);
      expect(isBetaEligible('FMK.App:443', settings, PRIVILEGED)).toBe(true);
      expect(isBetaEligible('fmk-auth.example.com', settings, PRIVILEGED)).toBe(true);
      expect(isBetaEligible('other.app', settings, PRIVILEGED)).toBe(false);
      expect(isBetaEligible('sub.fmk.app', settings, PRIVILEGED)).toBe(false);
    }
    expect(isBetaEligible('fmk.app', closed, ['FMK.APP'])).toBe(true);
  });

  it('admits other hosts only when the beta is enabled and not full', () => {
    expect(isBetaEligible('example.com', open({ maxUsers: 10, currentCount: 0 }))).toBe(true);
    expect(isBetaEligible('example.com', open({ maxUsers: 10, currentCount: 9 }))).toBe(true);
    expect(isBetaEligible('example.com', full)).toBe(false);
    expect(isBetaEligible('example.com', open({ maxUsers: 10, currentCount: 11 }))).toBe(false);
    expect(isBetaEligible('example.com', closed)).toBe(false);
    expect(isBetaEligible('example.com', { ...closed, currentCount: 0, maxUsers: 1000 })).toBe(false);
  });

  it('equals enabled && count < max for ordinary hosts (property)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.nat({ max: 2000 }), fc.nat({ max: 2000 }), (enabled, maxUsers, currentCount) => {
        const s = open({ enabled, maxUsers, currentCount });
        return isBetaEligible('example.com:8443', s) === (enabled && currentCount < maxUsers);
      }),
    );
  });
});

describe('afterBetaJoin', () => {
  it('counts the new user', () => {
    expect(afterBetaJoin(open({ currentCount: 4 })).currentCount).toBe(5);
  });

  it('closes the beta with autoClose when the join reaches maxUsers', () => {
    const after = afterBetaJoin(open({ maxUsers: 10, currentCount: 9, autoClose: true }));
    expect(after).toMatchObject({ currentCount: 10, enabled: false, maxUsers: 10 });
  });

  it('keeps the beta open with autoClose while below maxUsers', () => {
    expect(afterBetaJoin(open({ maxUsers: 10, currentCount: 8, autoClose: true }))).toMatchObject({
      currentCount: 9,
      enabled: true,
    });
  });

  it('keeps the beta open without autoClose even when full', () => {
    expect(afterBetaJoin(open({ maxUsers: 10, currentCount: 9, autoClose: false }))).toMatchObject({
      currentCount: 10,
      enabled: true,
    });
  });

  it('never re-enables a disabled beta', () => {
    expect(afterBetaJoin({ ...closed, currentCount: 0 }).enabled).toBe(false);
    expect(afterBetaJoin({ ...closed, autoClose: false }).enabled).toBe(false);
  });

  it('does not mutate its input and keeps the other settings', () => {
    const before = open({ maxUsers: 3, currentCount: 2, lifetimePremium: false });
    const copy = { ...before };
    const after = afterBetaJoin(before);
    expect(before).toEqual(copy);
    expect(after.lifetimePremium).toBe(false);
    expect(after.maxUsers).toBe(3);
    expect(after.autoClose).toBe(true);
  });

  it('closes exactly when autoClose and the new count reaches maxUsers (property)', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 2000 }),
        fc.nat({ max: 2000 }),
        (enabled, autoClose, maxUsers, currentCount) => {
          const after = afterBetaJoin({ enabled, autoClose, maxUsers, currentCount, lifetimePremium: true });
          expect(after.currentCount).toBe(currentCount + 1);
          expect(after.enabled).toBe(enabled && !(autoClose && currentCount + 1 >= maxUsers));
        },
      ),
    );
  });

  it('with autoClose, a beta filled one join at a time admits exactly maxUsers users', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), (maxUsers) => {
        let s = open({ maxUsers, currentCount: 0, autoClose: true });
        let joined = 0;
        while (isBetaEligible('example.com', s)) {
          s = afterBetaJoin(s);
          joined++;
        }
        expect(joined).toBe(maxUsers);
        expect(s.enabled).toBe(false);
      }),
    );
  });
});
