import { SquareClient, SquareError, WebhooksHelper } from 'square';
import type { PaymentsConfig } from './config.ts';
import type { ChargeInput, Declined, PaymentProvider, ProviderCard, Refunded, RefundInput } from './provider.ts';

type SquareConfig = Extract<PaymentsConfig, { kind: 'square' }>;

/** Square's first error code of a refused call, e.g. CARD_DECLINED; other failures are thrown. */
function declined(err: unknown): Declined {
  if (err instanceof SquareError && err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return { ok: false, code: err.errors[0]?.code ?? 'DECLINED' };
  }
  throw err;
}

/**
 * Square through its official Node SDK (`square`): customers, cards on file, payments, refunds
 * (RefundPayment), and the webhook signature check. The base URL follows SQUARE_ENVIRONMENT, or SQUARE_API_URL (tests
 * point it at a local stand-in that speaks these endpoints).
 */
export class SquareProvider implements PaymentProvider {
  readonly kind = 'square' as const;
  private readonly client: SquareClient;

  constructor(private readonly config: SquareConfig) {
    this.client = new SquareClient({ token: config.accessToken, baseUrl: config.baseUrl, maxRetries: 0, timeoutInSeconds: 20 });
  }

  async createCustomer(input: { referenceId: string; email: string; idempotencyKey: string }): Promise<string> {
    const r = await this.client.customers.create({
      idempotencyKey: input.idempotencyKey,
      referenceId: input.referenceId,
      ...(input.email ? { emailAddress: input.email } : {}),
    });
    const id = r.customer?.id;
    if (!id) throw new Error('Square created no customer');
    return id;
  }

  async saveCard(input: {
    customerId: string;
    sourceId: string;
    idempotencyKey: string;
  }): Promise<{ ok: true; card: ProviderCard } | Declined> {
    try {
      const r = await this.client.cards.create({
        idempotencyKey: input.idempotencyKey,
        sourceId: input.sourceId,
        card: { customerId: input.customerId },
      });
      const c = r.card;
      if (!c?.id) return { ok: false, code: 'CARD_NOT_SAVED' };
      return {
        ok: true,
        card: {
          cardId: c.id,
          brand: String(c.cardBrand ?? 'OTHER_BRAND'),
          last4: c.last4 ?? '????',
          expMonth: Number(c.expMonth ?? 0),
          expYear: Number(c.expYear ?? 0),
        },
      };
    } catch (err) {
      return declined(err);
    }
  }

  async charge(input: ChargeInput): Promise<{ ok: true; paymentId: string } | Declined> {
    try {
      const r = await this.client.payments.create({
        sourceId: input.cardId,
        idempotencyKey: input.idempotencyKey,
        amountMoney: { amount: BigInt(input.amountCents), currency: input.currency as 'USD' },
        autocomplete: true,
        customerId: input.customerId,
        locationId: this.config.locationId,
        ...(input.note ? { note: input.note } : {}),
      });
      const p = r.payment;
      if (!p?.id || (p.status !== 'COMPLETED' && p.status !== 'APPROVED')) return { ok: false, code: p?.status ?? 'FAILED' };
      return { ok: true, paymentId: p.id };
    } catch (err) {
      return declined(err);
    }
  }

  /**
   * POST /v2/refunds. Square answers PENDING for most card refunds and later COMPLETED (or
   * REJECTED / FAILED) by a `refund.updated` webhook; a refund it refuses at once is its error code
   * (REFUND_AMOUNT_INVALID when it is more than the payment has left).
   */
  async refund(input: RefundInput): Promise<Refunded | Declined> {
    try {
      const r = await this.client.refunds.refundPayment({
        idempotencyKey: input.idempotencyKey,
        amountMoney: { amount: BigInt(input.amountCents), currency: input.currency as 'USD' },
        paymentId: input.paymentId,
        reason: input.reason,
      });
      const f = r.refund;
      if (!f?.id || f.status === 'REJECTED' || f.status === 'FAILED') return { ok: false, code: f?.status ?? 'REFUND_FAILED' };
      return { ok: true, refundId: f.id, status: f.status === 'COMPLETED' ? 'completed' : 'pending' };
    } catch (err) {
      return declined(err);
    }
  }

  async disableCard(cardId: string): Promise<void> {
    await this.client.cards.disable({ cardId });
  }

  async verifyWebhook(body: string, signature: string | undefined, url: string): Promise<boolean> {
    if (!signature) return false;
    return WebhooksHelper.verifySignature({
      requestBody: body,
      signatureHeader: signature,
      signatureKey: this.config.webhookKey,
      notificationUrl: url,
    });
  }

  close(): void {}
}
