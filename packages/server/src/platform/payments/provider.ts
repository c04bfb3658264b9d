import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What FMK asks of a payment provider. Two implement it: the built-in sandbox (the
 * default, no account, no money) and Square (its official SDK). FMK keeps the subscription
 * itself and charges a saved card each period, so a provider needs customers, cards, payments
 * and signed webhooks. A card number never reaches FMK: only a token from the provider's form.
 */
export interface ProviderCard {
  cardId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A refusal from the provider: its error code (CARD_DECLINED, CVV_FAILURE, ...). */
export type Declined = { ok: false; code: string };

/** One charge of a saved card; the idempotency key makes a retried charge the same payment. */
export interface ChargeInput {
  customerId: string;
  cardId: string;
  amountCents: number;
  currency: string;
  idempotencyKey: string;
  note?: string;
}

/** A refund of a payment, in part or in full; the idempotency key makes a retry the same refund. */
export interface RefundInput {
  /** The provider's id of the payment. */
  paymentId: string;
  amountCents: number;
  currency: string;
  idempotencyKey: string;
  reason: string;
}

/** A refund the provider took: done at once, or pending until its webhook says (Square). */
export type Refunded = { ok: true; refundId: string; status: 'pending' | 'completed' };

export interface PaymentProvider {
  readonly kind: 'sandbox' | 'square';
  createCustomer(input: { referenceId: string; email: string; idempotencyKey: string }): Promise<string>;
  saveCard(input: {
    customerId: string;
    sourceId: string;
    idempotencyKey: string;
  }): Promise<{ ok: true; card: ProviderCard } | Declined>;
  charge(input: ChargeInput): Promise<{ ok: true; paymentId: string } | Declined>;
  disableCard(cardId: string): Promise<void>;
  /** Gives back part or all of a payment (Square's RefundPayment); a refusal is its error code. */
  refund(input: RefundInput): Promise<Refunded | Declined>;
  /** Whether a webhook's body was signed with the provider's key for this notification URL. */
  verifyWebhook(body: string, signature: string | undefined, url: string): Promise<boolean>;
  /** Stops timers (the sandbox's delayed webhooks). */
  close(): void;
}

/** A webhook as Square sends it (the sandbox sends the same shape). */
export interface ProviderEvent {
  event_id: string;
  type: string;
  created_at?: string;
  data?: {
    type?: string;
    id?: string;
    object?: { payment?: { id: string; status: string }; refund?: { id: string; status: string; payment_id?: string } };
  };
}

/** Square's webhook signature: base64 HMAC-SHA256 of the notification URL followed by the body. */
export function signWebhook(key: string, url: string, body: string): string {
  return createHmac('sha256', key)
    .update(url + body)
    .digest('base64');
}

export function verifySignature(key: string, url: string, body: string, signature: string | undefined): boolean {
  if (!signature) return false;
  const want = Buffer.from(signWebhook(key, url, body));
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The header Square signs its webhooks in. */
export const SIGNATURE_HEADER = 'x-square-hmacsha256-signature';
