import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Sms, SmsProvider } from './types.ts';

/**
 * Development's and the tests' texts: each one written as a JSON file ({ to, body, sentAt }) under
 * DATA_DIR/sms-outbox, with one log line carrying the text itself, so `npm start` needs no SMS
 * account and a developer (or an e2e test) can still read the code.
 */
export class OutboxSmsProvider implements SmsProvider {
  constructor(
    readonly dir: string,
    private readonly log: Pick<FastifyBaseLogger, 'info'>,
  ) {}

  async send(sms: Sms): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const sentAt = new Date().toISOString();
    // Sorts by time; the random tail keeps two texts of one millisecond apart.
    const file = path.join(this.dir, `${sentAt.replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.json`);
    await writeFile(file, `${JSON.stringify({ to: sms.to, body: sms.body, sentAt })}\n`, { mode: 0o600 });
    // Only where: a phone number is personal data and the text carries a sign-in code.
    this.log.info(`SMS written to ${file}`);
  }
}
