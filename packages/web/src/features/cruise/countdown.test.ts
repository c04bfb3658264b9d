import { describe, expect, it } from 'vitest';
import { formatCountdown, formatNextStart, remainingMs } from './countdown.ts';

describe('the session countdown', () => {
  it("counts by the server's clock, whatever the phone's clock says", () => {
    const endsAt = '2026-06-01T10:30:00Z';
    const serverTime = '2026-06-01T10:00:00Z';
    // The phone is 2 hours off; 90 s passed since the answer arrived.
    const receivedAt = new Date('2026-06-01T12:00:00Z').getTime();
    expect(remainingMs(endsAt, serverTime, receivedAt, receivedAt + 90_000)).toBe(28.5 * 60_000);
    expect(remainingMs(endsAt, serverTime, receivedAt, receivedAt + 31 * 60_000)).toBe(0);
  });

  it('shows minutes and seconds, rounding up so it reads 0:00 only at the end', () => {
    expect(formatCountdown(30 * 60_000)).toBe('30:00');
    expect(formatCountdown(29 * 60_000 + 59_001)).toBe('30:00');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
  });

  it('says when the next session may start', () => {
    const now = new Date('2026-06-01T10:00:00Z').getTime();
    expect(formatNextStart('2026-06-01T10:20:00Z', now)).toBe('in 20 min');
    expect(formatNextStart('2026-06-01T13:00:00Z', now)).toBe('in 3 h');
    expect(formatNextStart('2026-06-01T09:00:00Z', now)).toBe('now');
  });
});
