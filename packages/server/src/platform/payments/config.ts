// The payment provider's configuration: Square when its keys are set, otherwise the
// built-in sandbox. platform/config.ts reads the environment and calls these.

/** Square's variables: all of them or none. */
export const SQUARE_KEYS = [
  'SQUARE_ACCESS_TOKEN',
  'SQUARE_LOCATION_ID',
  'SQUARE_WEBHOOK_SIGNATURE_KEY',
  'SQUARE_APPLICATION_ID',
] as const;

/** The variables the payments read, as the environment schema parsed them. */
export interface PaymentsEnv {
  SQUARE_ACCESS_TOKEN?: string | undefined;
  SQUARE_LOCATION_ID?: string | undefined;
  SQUARE_WEBHOOK_SIGNATURE_KEY?: string | undefined;
  SQUARE_APPLICATION_ID?: string | undefined;
  SQUARE_ENVIRONMENT: 'sandbox' | 'production';
  SQUARE_API_URL?: string | undefined;
  SANDBOX_WEBHOOK_DELAY_MS: number;
}

/** The payment provider: Square's API, or the built-in sandbox (no account, no money). */
export type PaymentsConfig =
  | { kind: 'sandbox'; webhookKey: string; webhookDelayMs: number }
  | {
      kind: 'square';
      accessToken: string;
      locationId: string;
      environment: 'sandbox' | 'production';
      webhookKey: string;
      applicationId: string;
      /** Square's API host; SQUARE_API_URL points it elsewhere (the tests' stand-in). */
      baseUrl: string;
    };

/** The sandbox's webhook signing key: it signs and checks its own events, as Square does. */
const SANDBOX_WEBHOOK_KEY = 'fmk-sandbox-webhook-signature-key';

/** Square's variables that are missing when some are set (a half configuration is an error). */
export function missingSquareKeys(e: PaymentsEnv): string[] {
  return SQUARE_KEYS.some((k) => e[k]) ? SQUARE_KEYS.filter((k) => !e[k]) : [];
}

/** The provider's configuration; call after missingSquareKeys found nothing missing. */
export function resolvePayments(e: PaymentsEnv): PaymentsConfig {
  const given = SQUARE_KEYS.filter((k) => e[k]);
  if (given.length === 0) {
    return { kind: 'sandbox', webhookKey: SANDBOX_WEBHOOK_KEY, webhookDelayMs: e.SANDBOX_WEBHOOK_DELAY_MS };
  }
  const host = e.SQUARE_ENVIRONMENT === 'production' ? 'https://connect.squareup.com' : 'https://connect.squareupsandbox.com';
  return {
    kind: 'square',
    accessToken: e.SQUARE_ACCESS_TOKEN as string,
    locationId: e.SQUARE_LOCATION_ID as string,
    environment: e.SQUARE_ENVIRONMENT,
    webhookKey: e.SQUARE_WEBHOOK_SIGNATURE_KEY as string,
    applicationId: e.SQUARE_APPLICATION_ID as string,
    baseUrl: (e.SQUARE_API_URL ?? host).replace(/\/$/, ''),
  };
}
