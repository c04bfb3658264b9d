import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/platform/config.ts';

type Headers = Record<string, string>;

let phones = 0;
/** A number no other test of the process uses (the per-number text limit counts only its own). */
function newPhone(): string {
  phones += 1;
  return `+1628${String(Date.now() % 100_000).padStart(5, '0')}${String(phones).padStart(2, '0')}`;
}

/**
 * The verified badge as a member earns it: a number, the code texted to it (the development
 * outbox the tests text to), typed back through POST /me/phone/verify.
 */
export async function verifyPhone(app: FastifyInstance, config: Config, headers: Headers): Promise<void> {
  const phone = newPhone();
  const sent = await app.inject({ method: 'POST', url: '/api/v1/me/phone', headers, payload: { phone } });
  if (sent.statusCode !== 200) throw new Error(`phone: ${sent.body}`);
  const code = lastCodeTo(config, phone);
  const ok = await app.inject({ method: 'POST', url: '/api/v1/me/phone/verify', headers, payload: { code } });
  if (ok.statusCode !== 200 || !ok.json().verified) throw new Error(`verify: ${ok.body}`);
}

/** The code of the last text the development outbox holds for `phone` (the tests text there). */
export function lastCodeTo(config: Config, phone: string): string {
  if (config.sms.kind !== 'outbox') throw new Error('tests text to the outbox');
  const dir = config.sms.outboxDir;
  const texts = readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { to: string; body: string })
    .filter((x) => x.to === phone);
  const code = /^(\d{6}) /.exec(texts.at(-1)?.body ?? '')?.[1];
  if (!code) throw new Error(`no text to ${phone}`);
  return code;
}
