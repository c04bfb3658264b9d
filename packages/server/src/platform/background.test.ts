import { describe, expect, it } from 'vitest';
import { BackgroundQueue } from './background.ts';

/** A task that waits until the test lets it finish, recording how many run at once. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const ticks = async (n = 5) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('BackgroundQueue', () => {
  it('runs at most `concurrency` tasks at once, the rest in order', async () => {
    const errors: unknown[] = [];
    const q = new BackgroundQueue(2, (e) => errors.push(e));
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    let running = 0;
    let most = 0;
    for (const [i, g] of gates.entries())
      q.enqueue(async () => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await g.opened;
        running--;
      });
    await ticks();
    expect(started).toEqual([0, 1]);
    expect(q.size).toBe(4);
    gates[1]!.open();
    await ticks();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await q.settle();
    expect(started).toEqual([0, 1, 2, 3]);
    expect(most).toBe(2);
    expect(q.size).toBe(0);
    expect(errors).toEqual([]);
  });

  it("sends an enqueued task's error to onError, and the queue goes on", async () => {
    const errors: unknown[] = [];
    const q = new BackgroundQueue(1, (e) => errors.push(e));
    let ran = false;
    q.enqueue(async () => {
      throw new Error('boom');
    });
    q.enqueue(async () => {
      ran = true;
    });
    await q.settle();
    expect((errors[0] as Error).message).toBe('boom');
    expect(ran).toBe(true);
  });

  it('run answers with the result or the error of its task, in its turn, without onError', async () => {
    const errors: unknown[] = [];
    const q = new BackgroundQueue(1, (e) => errors.push(e));
    const first = gate();
    const order: string[] = [];
    const a = q.run(async () => {
      await first.opened;
      order.push('a');
      return 'A';
    });
    const b = q.run(async () => {
      order.push('b');
      throw new Error('no');
    });
    const c = q.run(async () => {
      order.push('c');
      return 3;
    });
    await ticks();
    expect(order).toEqual([]);
    first.open();
    expect(await a).toBe('A');
    await expect(b).rejects.toThrow('no');
    expect(await c).toBe(3);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(errors).toEqual([]);
  });
});
