import nodemailer, { type Transporter } from 'nodemailer';
import type { Mail, MailTransport } from './types.ts';

/**
 * Delivery to the SMTP server SMTP_URL names: `smtp://user:pass@host:587` (STARTTLS when the
 * server offers it), `smtps://…:465` (TLS from the start); query options are nodemailer's
 * (`?requireTLS=true`, `?tls.servername=…`). A small pool keeps connections open, so a burst of
 * sign-ups does not open one each.
 */
export class SmtpTransport implements MailTransport {
  private readonly transporter: Transporter;

  constructor(url: string) {
    this.transporter = nodemailer.createTransport({
      url,
      pool: true,
      maxConnections: 3,
      // A stuck server must not hold a mail (and the shutdown waiting on it) for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async deliver(mail: Mail & { from: string }): Promise<void> {
    await this.transporter.sendMail(mail);
  }

  close(): void {
    this.transporter.close();
  }
}
