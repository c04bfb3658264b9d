import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { OutboxTransport } from './outbox.ts';
import { SmtpTransport } from './smtp.ts';
import type { Mail, MailTransport } from './types.ts';

export type { Mail, MailTransport } from './types.ts';

/** Hands mail to the transport without making the caller wait (see types.ts for why). */
export class Mailer {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** Queues a mail for delivery; never throws. */
  send(mail: Mail): void {
    this.sendLater(async () => mail);
  }

  /**
   * Queues the work of deciding on a mail and making it (null: no mail), then its delivery. The
   * caller answers before any of it runs, so its answer takes the same time whether a mail goes
   * out or not (a password reset must not tell whether an address has an account).
   */
  sendLater(make: () => Promise<Mail | null>): void {
    const p = new Promise<void>((resolve) => setImmediate(resolve))
      .then(make)
      .then((mail) => (mail ? this.transport.deliver({ ...mail, from: this.from }) : undefined))
      .catch((err: unknown) => this.log.error({ err }, 'mail delivery failed'))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Resolves when every mail queued so far has been delivered or has failed (tests, shutdown). */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    await this.settle();
    this.transport.close();
  }
}

/** SMTP when SMTP_URL is set (required in production), otherwise the outbox folder. */
export function createMailer(config: Pick<Config, 'mail'>, log: Pick<FastifyBaseLogger, 'info' | 'error'>): Mailer {
  const { smtpUrl, from, outboxDir } = config.mail;
  const transport = smtpUrl ? new SmtpTransport(smtpUrl) : new OutboxTransport(outboxDir, log);
  return new Mailer(transport, from, log);
}
