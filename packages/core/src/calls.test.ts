import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALL_ATTEMPTS_PER_HOUR,
  CALL_OUTCOMES,
  CALL_RING_TIMEOUT_MS,
  callLineText,
  callQuality,
  callSignalSchema,
  formatCallTimer,
  mayAttemptCall,
  ringDeadline,
  turnUsername,
} from './calls.ts';

describe('call chat lines', () => {
  it('says the issue’s words', () => {
    expect(callLineText('video', 'missed', 0)).toBe('Missed video call');
    expect(callLineText('video', 'busy', 0)).toBe('Missed video call');
    expect(callLineText('voice', 'declined', 0)).toBe('Declined voice call');
    expect(callLineText('video', 'finished', 4 * 60_000)).toBe('Video call, 4 min');
    expect(callLineText('video', 'finished', 3 * 60_000 + 40_000)).toBe('Video call, 4 min');
    expect(callLineText('voice', 'finished', 40_000)).toBe('Voice call, 40 s');
    expect(callLineText('video', 'blocked', 10_000)).toBeNull();
  });

  it('gives every outcome but a block a line, at any duration', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CALL_OUTCOMES),
        fc.constantFrom('video' as const, 'voice' as const),
        fc.nat(),
        (o, k, ms) => {
          const line = callLineText(k, o, ms);
          if (o === 'blocked') expect(line).toBeNull();
          else expect(line).toMatch(k === 'video' ? /video call/i : /voice call/i);
        },
      ),
    );
  });
});

describe('call limits', () => {
  it('allows 30 attempts an hour and refuses the 31st', () => {
    fc.assert(
      fc.property(fc.nat(100), (n) => {
        expect(mayAttemptCall(n)).toBe(n < CALL_ATTEMPTS_PER_HOUR);
      }),
    );
    expect(mayAttemptCall(29)).toBe(true);
    expect(mayAttemptCall(30)).toBe(false);
  });

  it('rings for 45 s', () => {
    const t = new Date('2026-06-01T12:00:00Z');
    expect(ringDeadline(t).getTime() - t.getTime()).toBe(CALL_RING_TIMEOUT_MS);
    expect(CALL_RING_TIMEOUT_MS).toBe(45_000);
  });

  it('formats the timer', () => {
    expect(formatCallTimer(0)).toBe('0:00');
    expect(formatCallTimer(65_000)).toBe('1:05');
    expect(formatCallTimer(3_725_000)).toBe('1:02:05');
  });
});

describe('signals and TURN names', () => {
  it('accepts offers, answers and candidates, and refuses anything else', () => {
    expect(callSignalSchema.safeParse({ kind: 'offer', sdp: 'v=0' }).success).toBe(true);
    expect(
      callSignalSchema.safeParse({ kind: 'ice', candidate: { candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 } }).success,
    ).toBe(true);
    expect(callSignalSchema.safeParse({ kind: 'media', data: 'x' }).success).toBe(false);
    expect(callSignalSchema.safeParse({ kind: 'offer', sdp: 'x'.repeat(40_000) }).success).toBe(false);
  });

  it('names TURN users expiry:uid', () => {
    expect(turnUsername(Date.parse('2026-06-01T12:00:00Z'), 3600, 'u1')).toBe(`${Date.parse('2026-06-01T13:00:00Z') / 1000}:u1`);
  });
});

describe('call quality', () => {
  it('grades by loss and round trip, never better when either worsens', () => {
    expect(callQuality({ rttMs: 20, lossRatio: 0 })).toBe('good');
    expect(callQuality({ rttMs: 300, lossRatio: 0 })).toBe('fair');
    expect(callQuality({ rttMs: 20, lossRatio: 0.1 })).toBe('poor');
    expect(callQuality({ rttMs: null, lossRatio: 0 })).toBe('good');
    const rank = { good: 0, fair: 1, poor: 2 } as const;
    fc.assert(
      fc.property(fc.nat(2000), fc.nat(2000), fc.double({ min: 0, max: 1, noNaN: true }), (r1, dr, loss) => {
        expect(rank[callQuality({ rttMs: r1 + dr, lossRatio: loss })]).toBeGreaterThanOrEqual(
          rank[callQuality({ rttMs: r1, lossRatio: loss })],
        );
      }),
    );
  });
});
