import type { ZodFastify } from './module.ts';

/** What a job logs its failures to (the app's logger, or none in tests that drive a pass themselves). */
export interface JobLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface JobOptions {
  /** Named in the log line of a failed pass: `<name> failed`. */
  name: string;
  log?: JobLog | undefined;
  /** How loud a failed pass is; a best-effort job (demo alerts, call sweep) only warns. */
  level?: 'error' | 'warn';
  /** The interval start() uses when given none. */
  everyMs: number;
}

/** What the health screen shows of a job. */
export interface JobStatus {
  name: string;
  everyMs: number;
  running: boolean;
  runs: number;
  failures: number;
  lastRunAt: string | null;
  lastOk: boolean | null;
  lastError: string | null;
}

/**
 * The jobs started in this process, for the health screen: a job joins when started and leaves
 * when stopped, so the list is what runs now.
 */
const started = new Set<IntervalJob>();

export function jobStatuses(): JobStatus[] {
  return [...started].map((j) => j.status()).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A background pass run every interval. A tick that finds the previous pass still running skips,
 * so a slow pass never piles up behind itself or races its own writes; a failed pass is logged
 * and the next tick tries again; the timer never keeps the process alive; and stop() waits for
 * the pass in progress, so the database can close after it.
 */
export class IntervalJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private runs = 0;
  private failures = 0;
  private lastRunAt: Date | null = null;
  private lastError: string | null = null;
  private lastOk: boolean | null = null;
  private interval: number | null = null;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly options: JobOptions,
  ) {}

  start(intervalMs = this.options.everyMs): void {
    if (this.timer) return;
    const { name, log, level = 'error' } = this.options;
    this.interval = intervalMs;
    this.timer = setInterval(() => {
      this.running ??= this.run()
        .then(() => {
          this.lastOk = true;
          this.lastError = null;
        })
        .catch((err: unknown) => {
          this.failures++;
          this.lastOk = false;
          this.lastError = err instanceof Error ? err.message : String(err);
          log?.[level]({ err }, `${name} failed`);
        })
        .finally(() => {
          this.runs++;
          this.lastRunAt = new Date();
          this.running = null;
        });
    }, intervalMs);
    this.timer.unref();
    started.add(this);
  }

  status(): JobStatus {
    return {
      name: this.options.name,
      everyMs: this.interval ?? this.options.everyMs,
      running: this.running !== null,
      runs: this.runs,
      failures: this.failures,
      lastRunAt: this.lastRunAt?.toISOString() ?? null,
      lastOk: this.lastOk,
      lastError: this.lastError,
    };
  }

  async stop(): Promise<void> {
    started.delete(this);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

/**
 * Runs a job for as long as the app is up: started once the app is ready, stopped on close
 * (waiting for a pass in progress while the database is still open).
 */
export function runWithApp(app: ZodFastify, job: Pick<IntervalJob, 'start' | 'stop'>): void {
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
}
