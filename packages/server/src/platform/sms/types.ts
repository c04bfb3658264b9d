/**
 * Outgoing text messages (SMS). Unlike mail, a text is sent while the request waits: the person
 * is looking at a code box, and 'we could not text this number' is something to tell him now.
 */
export interface Sms {
  /** E.164. */
  to: string;
  /** Shown on a lock screen: never names the app's purpose or anything private. */
  body: string;
}

/** Why a text did not go: the number cannot take it (tell the person), or the provider failed (try later). */
export type SmsFailure = 'undeliverable' | 'unavailable';

export class SmsError extends Error {
  override name = 'SmsError';
  constructor(
    readonly failure: SmsFailure,
    message: string,
    /** The provider's own error code, when it gave one. */
    readonly providerCode?: number,
  ) {
    super(message);
  }
}

/** Where texts go: a Twilio-style HTTP API, or the development outbox folder. */
export interface SmsProvider {
  /** Sends one text; rejects with an SmsError when it could not be handed over. */
  send(sms: Sms): Promise<void>;
}
