import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The two processes the crash test kills: the real server (main.ts in a process of its own, so a
 * SIGKILL is a real one: no handler runs, nothing is flushed) and, on PostgreSQL, a private
 * throwaway cluster stopped with an immediate shutdown (no checkpoint: crash recovery on start).
 * The machine's shared PostgreSQL is never touched: other test files use it at the same time.
 */

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');
const run = promisify(execFile);

/** A TCP port nobody listens on now (the server keeps one port across restarts: the clients know it). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const address = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The real server, started, SIGKILLed and started again on one port and one database. */
export class ServerProcess {
  private child: ChildProcess | null = null;
  /** The last output of every run (the server logs warnings only), for a failure's message. */
  private output = '';
  /** Each start's time until /api/health answered, in ms. */
  readonly startMs: number[] = [];
  /** Runs that ended without our SIGKILL (a crash of its own), with their exit code or signal. */
  readonly unexpectedExits: string[] = [];
  /** Requests PostgreSQL ended as deadlocked (SQLSTATE 40P01, in the server's error log): each a 500 to someone. */
  deadlocks = 0;
  private partial = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get log(): string {
    return this.output.slice(-4000);
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** Starts main.ts and resolves once /api/health answers 200; fails with its output if it exits first. */
  async start(timeoutMs = 180_000): Promise<void> {
    const began = Date.now();
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
      env: { PATH: process.env.PATH ?? '', ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    // A test that times out leaves its work running: the worker's exit takes this run with it.
    const orphan = () => child.kill('SIGKILL');
    process.once('exit', orphan);
    child.once('exit', () => process.removeListener('exit', orphan));
    const keep = (chunk: Buffer) => {
      this.output = (this.output + String(chunk)).slice(-20_000);
      const lines = (this.partial + String(chunk)).split('\n');
      this.partial = lines.pop() ?? '';
      this.deadlocks += lines.filter((l) => l.includes('"code":"40P01"')).length;
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    let exited: string | null = null;
    child.on('exit', (code, signal) => {
      exited = signal ?? String(code);
      if (this.child === child) {
        this.child = null;
        this.unexpectedExits.push(exited);
      }
    });
    while (Date.now() - began < timeoutMs) {
      if (exited !== null) throw new Error(`the server exited (${exited}) while starting:\n${this.log}`);
      try {
        const res = await fetch(`${this.baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) {
          this.startMs.push(Date.now() - began);
          return;
        }
      } catch {
        // Not listening yet.
      }
      await sleep(100);
    }
    throw new Error(`the server did not answer /api/health within ${timeoutMs} ms:\n${this.log}`);
  }

  /** SIGKILL: the process ends at once, requests in flight are cut. Resolves once it has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) throw new Error(`the server is not running (it exited on its own: ${this.unexpectedExits.join(', ')})`);
    this.child = null;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }

  /** Ends the last run (SIGKILL as well: the test never needs a clean stop). */
  async close(): Promise<void> {
    if (this.child) await this.kill();
  }
}

/** The newest installed PostgreSQL's programs (Debian keeps them in /usr/lib/postgresql/<version>/bin). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error(
      'The crash test needs a private PostgreSQL cluster: no initdb in /usr/lib/postgresql/*/bin (install the postgresql package).',
    );
  return path.join(root, versions[0], 'bin');
}

/**
 * A private PostgreSQL cluster in a temporary folder on a free port, fsync on (the defaults the
 * server's durability guard requires). PostgreSQL refuses to run as root: as root (CI on Debian)
 * its programs run as the postgres user, who owns the folder.
 */
export class PrivateCluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(): Promise<PrivateCluster> {
    const bin = postgresBin();
    const dir = mkdtempSync(path.join(tmpdir(), 'fmk-crash-pg-'));
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']).catch(() => {
        throw new Error('The crash test runs PostgreSQL as the postgres user when run as root, and there is none.');
      });
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const cluster = new PrivateCluster(dir, await freePort(), bin);
    process.once('exit', cluster.stopAtExit);
    // --no-sync only for initdb's own files; the running cluster keeps fsync on.
    await cluster.pg('initdb', ['-D', cluster.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await cluster.start();
    return cluster;
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  private async pg(program: string, args: string[]): Promise<void> {
    try {
      await run(...this.command(program, args));
    } catch (err) {
      const log = path.join(this.dir, 'log');
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`The crash test's private PostgreSQL failed: ${program} ${args.join(' ')}: ${String(err)}\n${tail}`);
    }
  }

  /** The command line of one of PostgreSQL's programs, as the postgres user when run as root. */
  private command(program: string, args: string[]): [string, string[]] {
    const file = path.join(this.bin, program);
    return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  }

  /** Starts the cluster (after an immediate stop: crash recovery) and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      "-c listen_addresses='127.0.0.1'",
      `-k ${this.dir}`,
      '-c fsync=on',
      '-c synchronous_commit=on',
      '-c full_page_writes=on',
      '-c max_connections=60',
    ].join(' ');
    await this.pg('pg_ctl', ['-D', this.data, '-l', path.join(this.dir, 'log'), '-o', options, '-w', '-t', '120', 'start']);
  }

  /** An immediate shutdown: every backend is ended at once, no checkpoint, as after a power cut of the server process. */
  async stopImmediate(): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
  }

  /** At the test process's exit (a timed-out test never reaches `destroy`): stopped at once, folder removed. */
  private readonly stopAtExit = () => {
    try {
      execFileSync(...this.command('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
    } catch {
      // Already stopped.
    }
    rmSync(this.dir, { recursive: true, force: true });
  };

  async destroy(): Promise<void> {
    process.removeListener('exit', this.stopAtExit);
    await this.pg('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
