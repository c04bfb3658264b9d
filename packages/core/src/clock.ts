/** Time is injected everywhere so windows, expiries and rollovers are testable without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Real time plus an offset that only moves forward: the end-to-end tests' clock (TEST_CLOCK). */
export function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += Math.max(0, ms);
    },
  };
}

/** A clock that stays where it is told; for tests. */
export function fixedClock(
  start: Date | string | number,
): Clock & { set(d: Date | string | number): void; advance(ms: number): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = new Date(d).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
