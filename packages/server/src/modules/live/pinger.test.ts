import { describe, expect, it } from 'vitest';
import { PingWheel } from './pinger.ts';

class FakeSocket {
  pings = 0;
  terminated = false;
  constructor(readonly name: string) {}
  ping(): void {
    this.pings++;
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('PingWheel', () => {
  it('pings each socket once a round, a slice a tick, spreading sockets over the slots', () => {
    const wheel = new PingWheel<FakeSocket>(3);
    const sockets = Array.from({ length: 9 }, (_, i) => new FakeSocket(`s${i}`));
    for (const s of sockets) wheel.add(s);
    wheel.tick();
    // One slot of three: a third of the sockets.
    expect(sockets.filter((s) => s.pings === 1)).toHaveLength(3);
    for (const s of sockets) wheel.pong(s);
    wheel.tick();
    wheel.tick();
    expect(sockets.map((s) => s.pings)).toEqual(Array(9).fill(1));
    expect(sockets.some((s) => s.terminated)).toBe(false);
    expect(wheel.size).toBe(9);
  });

  it('drops a socket that has not answered its last ping by its next turn, and keeps those that did', () => {
    const wheel = new PingWheel<FakeSocket>(2);
    const quiet = new FakeSocket('quiet');
    const chatty = new FakeSocket('chatty');
    wheel.add(quiet);
    wheel.add(chatty);
    wheel.tick();
    wheel.tick();
    expect([quiet.pings, chatty.pings]).toEqual([1, 1]);
    wheel.pong(chatty);
    wheel.tick();
    wheel.tick();
    expect(quiet.terminated).toBe(true);
    expect(chatty.terminated).toBe(false);
    expect(chatty.pings).toBe(2);
    expect([...wheel.sockets()]).toEqual([chatty]);
  });

  it('fills the emptiest slot, so slices stay even after sockets leave', () => {
    const wheel = new PingWheel<FakeSocket>(2);
    const [a, b, c] = [new FakeSocket('a'), new FakeSocket('b'), new FakeSocket('c')];
    wheel.add(a);
    wheel.add(b);
    wheel.remove(a);
    // a's slot is empty now: c joins it, not b's.
    wheel.add(c);
    wheel.tick();
    wheel.tick();
    expect([a.pings, b.pings, c.pings]).toEqual([0, 1, 1]);
    expect(wheel.size).toBe(2);
  });
});
