import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mail, MailTransport } from './types.ts';

/**
 * Development's and the tests' mail: each message, exactly as it would be sent, written as an
 * .eml file (any mail program opens it) under DATA_DIR/outbox, with one log line naming it. So
 * `npm start` needs no mail server and a developer can still follow every link.
 */
export class OutboxTransport implements MailTransport {
  private readonly composer: Transporter;

  constructor(
    readonly dir: string,
    private readonly log: Pick<FastifyBaseLogger, 'info'>,
  ) {
    this.composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async deliver(mail: Mail & { from: string }): Promise<void> {
    const info = (await this.composer.sendMail(mail)) as { message: Buffer };
    await mkdir(this.dir, { recursive: true });
    // Sorts by time; the random tail keeps two mails of one millisecond apart.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`;
    const file = path.join(this.dir, name);
    await writeFile(file, info.message, { mode: 0o600 });
    // Only where: the recipient, and a subject that may name a member or a meetup, are personal
    // data, and whoever reads the log is not whoever the mail is for. The file has them.
    this.log.info(`Mail written to ${file}`);
  }

  close(): void {
    this.composer.close();
  }
}
