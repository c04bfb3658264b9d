import { createDecipheriv, createECDH, type ECDH, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

/**
 * Web Push as the receiving side sees it: a push service on 127.0.0.1 (an HTTP server that
 * records what arrives) and a browser's subscription (an ECDH P-256 key pair and a 16-byte auth
 * secret) that decrypts the aes128gcm payload per RFC 8291/8188.
 */

export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on 127.0.0.1:0 that records what it receives and answers `status`. */
export class LocalPushService {
  received: Received[] = [];
  status = 201;
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = this.status;
      res.end();
      for (const w of this.waiters.splice(0)) w();
    });
  });
  private waiters: Array<() => void> = [];
  origin = '';

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
  /** Waits until `n` pushes have arrived in total. */
  async waitFor(n: number, ms = 3000): Promise<Received[]> {
    const deadline = Date.now() + ms;
    while (this.received.length < n) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${n} pushes, got ${this.received.length}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return this.received;
  }
}

/** What a browser holds for one subscription. */
export interface BrowserSubscription {
  endpoint: string;
  ecdh: ECDH;
  auth: Buffer;
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export function browserSubscription(origin: string): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `${origin}/push/${randomUUID()}`;
  return {
    endpoint,
    ecdh,
    auth,
    json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
  };
}

/** RFC 8291 (Web Push encryption) over RFC 8188 (aes128gcm), as the browser does it. */
export function decryptPush(sub: BrowserSubscription, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  expect(idlen).toBe(65);
  const records = body.subarray(21 + idlen);
  expect(records.length).toBeLessThanOrEqual(rs);

  const shared = sub.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}
