import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { OutboxSmsProvider } from './outbox.ts';
import { TwilioSmsProvider } from './twilio.ts';
import type { SmsProvider } from './types.ts';

export { type Sms, SmsError, type SmsFailure, type SmsProvider } from './types.ts';

/**
 * Twilio when its variables are set (required in production unless SMS_ENABLED=false), the
 * outbox folder otherwise; null when SMS is off, and phone verification then says so.
 */
export function createSmsProvider(config: Pick<Config, 'sms'>, log: Pick<FastifyBaseLogger, 'info'>): SmsProvider | null {
  const { sms } = config;
  if (sms.kind === 'off') return null;
  if (sms.kind === 'twilio') return new TwilioSmsProvider(sms);
  return new OutboxSmsProvider(sms.outboxDir, log);
}
