import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOOST_DURATION_MS,
  BoostMessages,
  boostCountdown,
  boostDay,
  boostLeftMs,
  boostStart,
  boostViewsText,
  includedLeft,
} from './boost.ts';
import { MINUTE } from './clock.ts';
import { DEFAULT_FLAGS, rulesFor } from './flags.ts';

const now = new Date('2026-06-01T23:50:00Z');

describe('boostStart', () => {
  it('spends the included boost first, then a credit, and refuses when both are gone', () => {
    const base = { activeUntil: null, includedPerDay: 1, includedUsedToday: 0, credits: 2 };
    expect(boostStart(base, now)).toEqual({ ok: true, source: 'included', endsAt: new Date(now.getTime() + 30 * MINUTE) });
    expect(boostStart({ ...base, includedUsedToday: 1 }, now)).toMatchObject({ ok: true, source: 'credit' });
    expect(boostStart({ ...base, includedUsedToday: 1, credits: 0 }, now)).toEqual({
      ok: false,
      reason: 'none_left',
      message: BoostMessages.noneLeft,
    });
  });

  it('refuses a second boost while one runs, whatever is left, and allows one the instant it ends', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 * 60_000 }), fc.nat(3), fc.nat(3), (leftMs, used, credits) => {
        const s = { activeUntil: new Date(now.getTime() + leftMs), includedPerDay: 1, includedUsedToday: used, credits };
        const r = boostStart(s, now);
        expect(r).toMatchObject({ ok: false, reason: 'active' });
        if (!r.ok) expect(r.message).toMatch(/already running \(\d+ min left\)/);
        const after = boostStart({ ...s, activeUntil: now }, now);
        expect(after.ok).toBe(used < 1 || credits > 0);
      }),
    );
  });

  it('never spends more included boosts a day than the flag allows', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: 5 }), fc.nat(8), (perDay, used) => {
        fc.pre(perDay !== 0 || used === 0);
        const r = boostStart({ activeUntil: null, includedPerDay: perDay, includedUsedToday: used, credits: 0 }, now);
        expect(r.ok).toBe(perDay === -1 || used < perDay);
        expect(includedLeft({ includedPerDay: perDay, includedUsedToday: used })).toBe(
          perDay === -1 ? -1 : Math.max(0, perDay - used),
        );
      }),
    );
  });

  it('includes one boost a day for Platinum only, as the seeded flag store holds it', () => {
    expect(rulesFor(DEFAULT_FLAGS, 'platinum').limits.boostsPerDay).toBe(1);
    expect(rulesFor(DEFAULT_FLAGS, 'platinum').has.boost).toBe(true);
    for (const t of ['free', 'premium'] as const) expect(rulesFor(DEFAULT_FLAGS, t).has.boost).toBe(false);
  });
});

describe('boost day, countdown and views', () => {
  it('counts the included boost by UTC day', () => {
    expect(boostDay(now)).toEqual({ start: new Date('2026-06-01T00:00:00Z'), end: new Date('2026-06-02T00:00:00Z') });
  });

  it('shows minutes and seconds left, never below zero', () => {
    expect(boostCountdown(new Date(now.getTime() + BOOST_DURATION_MS), now)).toBe('30:00');
    expect(boostCountdown(new Date(now.getTime() + 24 * MINUTE + 13_000), now)).toBe('24:13');
    expect(boostCountdown(new Date(now.getTime() + 5_500), now)).toBe('00:06');
    expect(boostCountdown(new Date(now.getTime() - 1_000), now)).toBe('00:00');
  });

  it("counts down by the server's clock, whatever the phone's says", () => {
    const serverTime = '2026-06-01T12:00:00.000Z';
    const endsAt = '2026-06-01T12:30:00.000Z';
    const received = Date.parse('2030-01-01T00:00:00Z');
    expect(boostLeftMs(endsAt, serverTime, received, received)).toBe(30 * MINUTE);
    expect(boostLeftMs(endsAt, serverTime, received, received + 5 * MINUTE)).toBe(25 * MINUTE);
    expect(boostLeftMs(endsAt, serverTime, received, received + 31 * MINUTE)).toBe(0);
  });

  it('says how many men saw him', () => {
    expect(boostViewsText(0)).toBe('No one has seen you yet');
    expect(boostViewsText(1)).toBe('1 man saw you');
    expect(boostViewsText(7)).toBe('7 men saw you');
  });
});
