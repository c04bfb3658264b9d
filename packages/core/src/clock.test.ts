import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY, fixedClock, HOUR, MINUTE, systemClock } from './clock.ts';

describe('fixedClock', () => {
  it('accepts a Date, an ISO string or epoch milliseconds', () => {
    const iso = '2025-06-15T12:00:00.000Z';
    const ms = Date.parse(iso);
    for (const start of [new Date(iso), iso, ms]) expect(fixedClock(start).now().toISOString()).toBe(iso);
  });

  it('stays where it is told', () => {
    const c = fixedClock('2025-01-01T00:00:00Z');
    const a = c.now();
    const b = c.now();
    expect(a.getTime()).toBe(b.getTime());
  });

  it('hands out fresh Date objects, so callers cannot move it by mutation', () => {
    const c = fixedClock('2025-01-01T00:00:00Z');
    const d = c.now();
    d.setFullYear(1999);
    expect(c.now().toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(c.now()).not.toBe(c.now());
  });

  it('does not follow a Date it was started from', () => {
    const start = new Date('2025-01-01T00:00:00Z');
    const c = fixedClock(start);
    start.setFullYear(1999);
    expect(c.now().toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('advances by the given milliseconds, forwards or back', () => {
    const c = fixedClock('2025-01-01T00:00:00Z');
    c.advance(DAY + HOUR + MINUTE + 1);
    expect(c.now().toISOString()).toBe('2025-01-02T01:01:00.001Z');
    c.advance(-DAY);
    expect(c.now().toISOString()).toBe('2025-01-01T01:01:00.001Z');
  });

  it('accumulates advances (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -DAY, max: DAY })), (steps) => {
        const start = Date.parse('2025-01-01T00:00:00Z');
        const c = fixedClock(start);
        for (const s of steps) c.advance(s);
        expect(c.now().getTime()).toBe(start + steps.reduce((a, b) => a + b, 0));
      }),
    );
  });

  it('set jumps to a new time, from any of the accepted forms', () => {
    const c = fixedClock('2025-01-01T00:00:00Z');
    c.set('2030-05-05T05:05:05Z');
    expect(c.now().toISOString()).toBe('2030-05-05T05:05:05.000Z');
    c.set(0);
    expect(c.now().getTime()).toBe(0);
    c.set(new Date('2020-02-29T00:00:00Z'));
    c.advance(DAY);
    expect(c.now().toISOString()).toBe('2020-03-01T00:00:00.000Z');
  });
});

describe('systemClock and units', () => {
  it('reads the real time', () => {
    const before = Date.now();
    const t = systemClock.now().getTime();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });

  it('has consistent units', () => {
    expect(MINUTE).toBe(60_000);
    expect(HOUR).toBe(60 * MINUTE);
    expect(DAY).toBe(24 * HOUR);
  });
});
