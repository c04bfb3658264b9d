import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * The NATS server the bus tests use: 127.0.0.1:4222 (every machine here and CI run one), or
 * TEST_NATS_URL. The tests never skip without it: they fail, saying so.
 */
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** Fails with a message that says what is missing when no NATS server answers. */
export async function requireNats(): Promise<void> {
  const { hostname, port } = new URL(NATS_URL);
  const ok = await new Promise<string | null>((resolve) => {
    const s = tcpConnect({ host: hostname, port: Number(port || 4222) });
    s.setTimeout(2000, () => {
      s.destroy();
      resolve('no answer within 2 s');
    });
    s.once('data', (d) => {
      s.destroy();
      resolve(String(d).startsWith('INFO ') ? null : `not a NATS server (said ${JSON.stringify(String(d).slice(0, 40))})`);
    });
    s.once('error', (err) => resolve(err.message));
  });
  if (ok !== null)
    throw new Error(
      `NATS is not reachable at ${NATS_URL} (${ok}). The bus tests need a NATS server: ` +
        '`apt-get install nats-server && nats-server -js`, or set TEST_NATS_URL (README, "Several instances").',
    );
}

/** Subjects of their own for one suite: files run in parallel against one NATS server. */
export const natsPrefix = () => `fmktest.${randomBytes(6).toString('hex')}`;

/**
 * A TCP relay in front of the NATS server whose connections can be cut, as a network failure
 * or a server restart would: the client sees its socket close and reconnects through the relay.
 */
export class CuttableRelay {
  private readonly pairs = new Set<[Socket, Socket]>();
  private server: Server | null = null;
  private refusing = false;
  url = '';

  async start(): Promise<this> {
    const { hostname, port } = new URL(NATS_URL);
    this.server = createServer((client) => {
      if (this.refusing) {
        client.destroy();
        return;
      }
      const upstream = tcpConnect({ host: hostname, port: Number(port || 4222) });
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      const end = () => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const addr = this.server.address();
    if (!addr || typeof addr === 'string') throw new Error('relay did not bind');
    this.url = `nats://127.0.0.1:${addr.port}`;
    return this;
  }

  /** Cuts every connection through the relay; `refuse` holds new ones off until `resume()`. */
  cut(opts: { refuse?: boolean } = {}): void {
    this.refusing = opts.refuse ?? false;
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
  }

  resume(): void {
    this.refusing = false;
  }

  get connections(): number {
    return this.pairs.size;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Waits until `check` holds (polling), or fails naming `what`. */
export async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
