import { BillingMessages } from '@fmk/core';

/**
 * The card form's two providers. Either way the card number stays in the browser and
 * only a token reaches FMK's server: the built-in sandbox's form turns Square's documented test
 * cards into Square's test nonces here; Square's Web Payments SDK tokenizes in its own frame.
 */

/** Square's sandbox test cards and the nonce each stands for (developer.squareup.com, "Sandbox payments"). */
export const SANDBOX_CARDS: readonly { number: string; label: string; nonce: string }[] = [
  { number: '4111 1111 1111 1111', label: 'Visa, approved', nonce: 'cnon:card-nonce-ok' },
  { number: '4000 0000 0000 0002', label: 'Visa, declined', nonce: 'cnon:card-nonce-declined' },
  { number: '5105 1051 0510 5100', label: 'Mastercard, pays once then declines', nonce: 'cnon:card-nonce-ok-then-declined' },
];

export type TokenResult = { ok: true; token: string } | { ok: false; error: string };

/** The sandbox's tokenizer: a test card number, a future expiry and a CVC become a nonce. */
export function sandboxTokenize(input: { number: string; expiry: string; cvc: string }, now: Date): TokenResult {
  const digits = input.number.replace(/\D/g, '');
  const card = SANDBOX_CARDS.find((c) => c.number.replace(/\D/g, '') === digits);
  if (digits.length < 12) return { ok: false, error: 'Enter the card number.' };
  if (!card) return { ok: false, error: 'This is the sandbox: use one of the test cards listed below.' };
  const m = /^(\d{1,2})\s*\/\s*(\d{2})$/.exec(input.expiry.trim());
  if (!m) return { ok: false, error: 'Enter the expiry as MM/YY.' };
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  if (month < 1 || month > 12 || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1)
    return { ok: false, error: 'This card has expired.' };
  if (!/^\d{3,4}$/.test(input.cvc.trim())) return { ok: false, error: 'Enter the 3 or 4 digit security code.' };
  return { ok: true, token: card.nonce };
}

/** Square's Web Payments SDK, as much of it as the form uses. */
export interface SquareCard {
  attach(selector: string): Promise<void>;
  tokenize(): Promise<{ status: string; token?: string; errors?: { message: string }[] }>;
  destroy?(): Promise<void>;
}
interface SquareGlobal {
  payments(applicationId: string, locationId: string): { card(): Promise<SquareCard> };
}

export const SQUARE_SDK_URL = {
  sandbox: 'https://sandbox.web.squarecdn.com/v1/square.js',
  production: 'https://web.squarecdn.com/v1/square.js',
} as const;

/** The spec's loader (section 8 "Payment SDK"): every 100 ms, up to 50 times (5 s). */
export const SDK_POLL_MS = 100;
export const SDK_POLL_TIMES = 50;

export type SdkState = 'not-loaded' | 'loading' | 'ready' | 'failed' | 'timeout';

/**
 * Loads Square's SDK from its host, once, and waits for `window.Square`. Rejects with
 * 'failed to load' (the script errored) or 'initialization timeout' (50 polls without it).
 */
export function loadSquareSdk(
  environment: 'sandbox' | 'production',
  w: Window & { Square?: SquareGlobal } = window,
): Promise<SquareGlobal> {
  return new Promise((resolve, reject) => {
    if (w.Square) return resolve(w.Square);
    const src = SQUARE_SDK_URL[environment];
    let script = w.document.querySelector<HTMLScriptElement>(`script[src="${src}"]`);
    if (!script) {
      script = w.document.createElement('script');
      script.src = src;
      script.async = true;
      w.document.head.appendChild(script);
    }
    let failed = false;
    script.addEventListener('error', () => {
      failed = true;
    });
    let polls = 0;
    const timer = w.setInterval(() => {
      polls += 1;
      if (w.Square) {
        w.clearInterval(timer);
        resolve(w.Square);
      } else if (failed) {
        w.clearInterval(timer);
        reject(new Error('failed to load'));
      } else if (polls >= SDK_POLL_TIMES) {
        w.clearInterval(timer);
        reject(new Error('initialization timeout'));
      }
    }, SDK_POLL_MS);
  });
}

/** A card instance from the loaded SDK; asking before it loaded is the spec's 'payments not initialized'. */
export async function squareCard(sdk: SquareGlobal | null, applicationId: string, locationId: string): Promise<SquareCard> {
  if (!sdk) throw new Error(BillingMessages.notInitialized);
  return sdk.payments(applicationId, locationId).card();
}
