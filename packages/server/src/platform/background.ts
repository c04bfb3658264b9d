/**
 * Work that follows a request's answer and must still happen (the safety screening of a sent
 * text). At most `concurrency` tasks run at once, so this work never holds more than that many of
 * the database pool's connections while requests wait for one; the rest wait in order. A task
 * never throws into anyone: its error goes to `onError`. `settle()` waits until every task queued
 * so far, and any they queue, has run (tests, and the app before it closes its database).
 */
export class BackgroundQueue {
  private waiting: Array<() => Promise<void>> = [];
  private next = 0;
  private running = 0;
  private idle: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  enqueue(task: () => Promise<void>): void {
    this.waiting.push(task);
    this.pump();
  }

  /**
   * Runs `task` in its turn and answers with its result or its error: a limit on work a caller
   * awaits (image encoding), where `enqueue` is for work nobody awaits.
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.enqueue(() => task().then(resolve, reject)));
  }

  /** Tasks queued or running. */
  get size(): number {
    return this.waiting.length - this.next + this.running;
  }

  settle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.running < this.concurrency && this.next < this.waiting.length) {
      const task = this.waiting[this.next++]!;
      // A long backlog drained: drop what has run rather than shifting the array each time.
      if (this.next > 1024 && this.next * 2 > this.waiting.length) {
        this.waiting = this.waiting.slice(this.next);
        this.next = 0;
      }
      this.running++;
      void Promise.resolve()
        .then(task)
        .catch((err: unknown) => this.onError(err))
        .finally(() => {
          this.running--;
          this.pump();
          if (this.size === 0) for (const resolve of this.idle.splice(0)) resolve();
        });
    }
  }
}
