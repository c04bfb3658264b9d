import { type Sms, SmsError, type SmsProvider } from './types.ts';

export interface TwilioConfig {
  /** https://api.twilio.com, or a compatible API (and a local stand-in in tests). */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** The sender: an E.164 number, or a Messaging Service's SID (MG…) that picks one. */
  from: string;
}

/**
 * Twilio's answers that mean this number cannot take a text (so the person is told to check it),
 * as listed at https://www.twilio.com/docs/api/errors: invalid 'To' (21211), not reachable (21214,
 * 21612), region not enabled (21408), the recipient sent STOP (21610), not a mobile (21614),
 * not a valid number (21217). Every other refusal is ours or theirs to fix, not the person's.
 */
const UNDELIVERABLE = new Set([21211, 21214, 21217, 21408, 21610, 21612, 21614]);

/** A stuck provider must not hold the request (and the person's screen) for long. */
const TIMEOUT_MS = 10_000;

/**
 * Texts through Twilio's Messages resource (or any API that speaks it):
 * POST {apiUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP basic auth with the account
 * SID and auth token, a form-encoded To, From (or MessagingServiceSid) and Body; 201 with the
 * message's JSON on success, else JSON { code, message, more_info, status }.
 */
export class TwilioSmsProvider implements SmsProvider {
  private readonly url: string;
  private readonly authorization: string;

  constructor(private readonly config: TwilioConfig) {
    this.url = `${config.apiUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
    this.authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  }

  async send(sms: Sms): Promise<void> {
    const form = new URLSearchParams({ To: sms.to, Body: sms.body });
    form.set(this.config.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', this.config.from);
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: {
          authorization: this.authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new SmsError('unavailable', `SMS provider unreachable: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (res.ok) {
      await res.body?.cancel();
      return;
    }
    const answer = await readError(res);
    const failure =
      res.status === 400 && answer.code !== undefined && UNDELIVERABLE.has(answer.code) ? 'undeliverable' : 'unavailable';
    throw new SmsError(
      failure,
      `SMS provider answered ${res.status}${answer.code ? ` (${answer.code})` : ''}: ${answer.message}`,
      answer.code,
    );
  }
}

async function readError(res: Response): Promise<{ code?: number; message: string }> {
  const text = await res.text().catch(() => '');
  try {
    const json = JSON.parse(text) as { code?: unknown; message?: unknown };
    return {
      code: typeof json.code === 'number' ? json.code : undefined,
      message: typeof json.message === 'string' ? json.message : text.slice(0, 200),
    };
  } catch {
    return { message: text.slice(0, 200) || res.statusText };
  }
}
