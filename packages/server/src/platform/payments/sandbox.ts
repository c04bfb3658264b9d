import { createHash, randomUUID } from 'node:crypto';
import type { PaymentProvider, ProviderCard, ProviderEvent, RefundInput } from './provider.ts';
import { verifySignature } from './provider.ts';

/**
 * The built-in sandbox provider (the default: `npm start` needs no account). It accepts the card
 * nonces Square's sandbox documents and answers as Square would: the declines with Square's error
 * codes, and each completed payment confirmed later by a signed `payment.updated` webhook
 * (SANDBOX_WEBHOOK_DELAY_MS after, delivered to the app's own webhook route). A refund is
 * recorded against its payment and completes at once (a `refund.updated` webhook follows); more
 * than is left of the payment is refused with Square's REFUND_AMOUNT_INVALID.
 */
const NONCES: Record<string, { code: string | null; card?: Omit<ProviderCard, 'cardId'> }> = {
  'cnon:card-nonce-ok': { code: null, card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030 } },
  'cnon:card-nonce-declined': { code: 'CARD_DECLINED' },
  'cnon:card-nonce-rejected-cvv': { code: 'CVV_FAILURE' },
  'cnon:card-nonce-rejected-postalcode': { code: 'ADDRESS_VERIFICATION_FAILURE' },
  'cnon:card-nonce-rejected-expiration': { code: 'INVALID_EXPIRATION' },
  'cnon:card-nonce-already-used': { code: 'CARD_TOKEN_USED' },
  // The sandbox's own: a card that pays once, then declines every later charge (renewal failures).
  'cnon:card-nonce-ok-then-declined': { code: null, card: { brand: 'MASTERCARD', last4: '4444', expMonth: 11, expYear: 2029 } },
};

export class SandboxProvider implements PaymentProvider {
  readonly kind = 'sandbox' as const;
  private readonly cards = new Map<string, { customerId: string; successesLeft: number }>();
  private readonly charges = new Map<string, string>();
  /** Each payment's amount and what was refunded of it, by the sandbox's payment id. */
  private readonly paid = new Map<string, { amount: number; refunded: number }>();
  /** The refunds made, by idempotency key: a retried key answers the same refund. */
  readonly refunds = new Map<string, { refundId: string; paymentId: string; amountCents: number; reason: string }>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly webhookKey: string,
    private readonly webhookDelayMs: number,
    /** Where the sandbox delivers its webhooks: the app's webhook handler, set once the app is built. */
    public deliver: ((event: ProviderEvent) => Promise<void>) | null = null,
  ) {}

  async createCustomer(input: { referenceId: string }): Promise<string> {
    return `sandbox-cust-${createHash('sha256').update(input.referenceId).digest('hex').slice(0, 20)}`;
  }

  async saveCard(input: { customerId: string; sourceId: string }) {
    const nonce = NONCES[input.sourceId];
    if (!nonce) return { ok: false as const, code: 'INVALID_CARD_DATA' };
    if (nonce.code || !nonce.card) return { ok: false as const, code: nonce.code ?? 'CARD_DECLINED' };
    const cardId = `sandbox-card-${randomUUID()}`;
    this.cards.set(cardId, {
      customerId: input.customerId,
      successesLeft: input.sourceId.endsWith('then-declined') ? 1 : Number.POSITIVE_INFINITY,
    });
    return { ok: true as const, card: { cardId, ...nonce.card } };
  }

  async charge(input: { customerId: string; cardId: string; idempotencyKey: string; amountCents: number }) {
    const previous = this.charges.get(input.idempotencyKey);
    if (previous) return { ok: true as const, paymentId: previous };
    const card = this.cards.get(input.cardId);
    // A card saved before a restart is not in memory: the sandbox has no money, so it succeeds.
    if (card && (card.successesLeft <= 0 || card.customerId !== input.customerId))
      return { ok: false as const, code: 'CARD_DECLINED' };
    if (card) card.successesLeft -= 1;
    const paymentId = `sandbox-pay-${randomUUID()}`;
    this.charges.set(input.idempotencyKey, paymentId);
    this.paid.set(paymentId, { amount: input.amountCents, refunded: 0 });
    this.later({
      event_id: `sandbox-evt-${randomUUID()}`,
      type: 'payment.updated',
      created_at: new Date().toISOString(),
      data: { type: 'payment', id: paymentId, object: { payment: { id: paymentId, status: 'COMPLETED' } } },
    });
    return { ok: true as const, paymentId };
  }

  /** Test control: every later charge on this card declines (a card that expired or ran dry). */
  declineCard(cardId: string): void {
    const card = this.cards.get(cardId);
    if (card) card.successesLeft = 0;
  }

  async refund(input: RefundInput) {
    const previous = this.refunds.get(input.idempotencyKey);
    if (previous) return { ok: true as const, refundId: previous.refundId, status: 'completed' as const };
    // A payment made before a restart is not in memory: the sandbox has no money, so it refunds.
    const payment = this.paid.get(input.paymentId);
    if (payment && input.amountCents > payment.amount - payment.refunded)
      return { ok: false as const, code: 'REFUND_AMOUNT_INVALID' };
    if (payment) payment.refunded += input.amountCents;
    const refundId = `sandbox-refund-${randomUUID()}`;
    this.refunds.set(input.idempotencyKey, {
      refundId,
      paymentId: input.paymentId,
      amountCents: input.amountCents,
      reason: input.reason,
    });
    this.later({
      event_id: `sandbox-evt-${randomUUID()}`,
      type: 'refund.updated',
      created_at: new Date().toISOString(),
      data: {
        type: 'refund',
        id: refundId,
        object: { refund: { id: refundId, status: 'COMPLETED', payment_id: input.paymentId } },
      },
    });
    return { ok: true as const, refundId, status: 'completed' as const };
  }

  async disableCard(cardId: string): Promise<void> {
    this.cards.delete(cardId);
  }

  async verifyWebhook(body: string, signature: string | undefined, url: string): Promise<boolean> {
    return verifySignature(this.webhookKey, url, body, signature);
  }

  private later(event: ProviderEvent): void {
    if (this.webhookDelayMs <= 0 || !this.deliver) return;
    const deliver = this.deliver;
    const t = setTimeout(() => {
      this.timers.delete(t);
      deliver(event).catch(() => {});
    }, this.webhookDelayMs);
    t.unref();
    this.timers.add(t);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
