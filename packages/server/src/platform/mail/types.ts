/**
 * Outgoing mail. A feature builds a `Mail` (see layout.ts for the text and HTML parts) and hands
 * it to `Mailer.send`, which returns at once: the request that caused a mail never waits on an
 * SMTP server, so an answer takes the same time whether a mail went out or not (a password reset
 * must not tell whether an address has an account), and a slow or failing server never fails a
 * sign-up. Failures are logged; the person can ask for the mail again.
 */
export interface Mail {
  to: string;
  /** Shown on a lock screen: never names health data or what the app is for. */
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes: an SMTP server, or the development outbox folder. */
export interface MailTransport {
  /** Delivers one mail; rejects when it could not be handed over. */
  deliver(mail: Mail & { from: string }): Promise<void>;
  close(): void;
}
