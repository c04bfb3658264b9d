import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TWILIO_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const TWILIO_TOKEN = 'auth-token-of-the-test';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

/**
 * A local stand-in for Twilio's Messages resource: it records each request and answers what the
 * test queued (by default Twilio's 201 with the message), else checks the credentials as Twilio
 * does (401 with code 20003).
 */
export class TwilioStandIn {
  readonly received: Received[] = [];
  private readonly answers: { status: number; body: string; type?: string }[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        this.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, form });
        const queued = this.answers.shift();
        const expected = `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`;
        const answer =
          queued ??
          (req.headers.authorization === expected
            ? {
                status: 201,
                body: JSON.stringify({ sid: 'SM123', status: 'queued', to: form.get('To'), body: form.get('Body') }),
              }
            : { status: 401, body: JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }) });
        res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  answerNext(status: number, body: unknown, type?: string): void {
    this.answers.push({ status, body: typeof body === 'string' ? body : JSON.stringify(body), type });
  }

  /** The app's environment for this stand-in (TWILIO_API_URL and the credentials it accepts). */
  env(): Record<string, string> {
    return {
      TWILIO_API_URL: this.url,
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      SMS_FROM: '+15005550006',
    };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export const twilioError = (code: number, message: string, status = 400) => ({
  code,
  message,
  more_info: `https://www.twilio.com/docs/errors/${code}`,
  status,
});
