import { describe, expect, it } from 'vitest';
import { paymentStats } from './billing.ts';
import { adminPaymentsQuery, refundBody, refundTooLarge, staffPaymentStatus } from './payments-admin.ts';

describe('a payment as staff see it', () => {
  it('is failed, paid, partly refunded or refunded from its own status and what was given back', () => {
    expect(staffPaymentStatus('failed', 999, 0)).toBe('failed');
    expect(staffPaymentStatus('completed', 999, 0)).toBe('completed');
    expect(staffPaymentStatus('completed', 999, 1)).toBe('partially_refunded');
    expect(staffPaymentStatus('completed', 999, 998)).toBe('partially_refunded');
    expect(staffPaymentStatus('completed', 999, 999)).toBe('refunded');
  });

  it('says how much is left when a refund asks for more', () => {
    expect(refundTooLarge(600)).toBe('The refund is more than what is left of the payment: at most $6.00.');
  });

  it('takes a refund with a reason and a key, in whole positive cents', () => {
    expect(refundBody.safeParse({ reason: 'Goodwill', idempotencyKey: 'key-12345' }).success).toBe(true);
    expect(refundBody.safeParse({ amountCents: 400, reason: ' Goodwill ', idempotencyKey: 'key-12345' }).data?.reason).toBe(
      'Goodwill',
    );
    for (const bad of [
      { amountCents: 0, reason: 'Goodwill', idempotencyKey: 'key-12345' },
      { amountCents: 4.5, reason: 'Goodwill', idempotencyKey: 'key-12345' },
      { amountCents: 400, reason: '  ', idempotencyKey: 'key-12345' },
      { amountCents: 400, reason: 'x'.repeat(193), idempotencyKey: 'key-12345' },
      { amountCents: 400, reason: 'Goodwill' },
    ])
      expect(refundBody.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('reads real UTC days in the list filters', () => {
    expect(adminPaymentsQuery.safeParse({ from: '2026-11-27', to: '2026-11-30' }).success).toBe(true);
    expect(adminPaymentsQuery.safeParse({ from: '2026-11-31x' }).success).toBe(false);
    expect(adminPaymentsQuery.safeParse({ from: '2026-13-45' }).success).toBe(false);
    expect(adminPaymentsQuery.safeParse({ from: '2026-02-30' }).success).toBe(false);
    expect(adminPaymentsQuery.safeParse({ from: '0000-01-01' }).success).toBe(false);
  });
});

describe("a member's payment stats", () => {
  it('counts what he spent net of refunds that did not fail', () => {
    const stats = paymentStats(
      [
        { kind: 'subscription', status: 'completed', amount: 999 },
        { kind: 'one_time', status: 'failed', amount: 500 },
        { kind: 'refund', status: 'completed', amount: 300 },
        { kind: 'refund', status: 'pending', amount: 100 },
        { kind: 'refund', status: 'failed', amount: 50 },
      ],
      [],
    );
    expect(stats.totalSpent).toBe(599);
  });
});
