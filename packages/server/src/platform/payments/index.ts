import type { PaymentsConfig } from './config.ts';
import type { PaymentProvider } from './provider.ts';
import { SandboxProvider } from './sandbox.ts';
import { SquareProvider } from './square.ts';

/** Square when configured, otherwise the built-in sandbox (no account, no money). */
export function createPaymentProvider(config: PaymentsConfig): PaymentProvider {
  return config.kind === 'square' ? new SquareProvider(config) : new SandboxProvider(config.webhookKey, config.webhookDelayMs);
}
