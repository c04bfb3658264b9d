import { formatPrice } from '@fmk/core';
import { composeMail } from '../../platform/mail/layout.ts';
import type { Mail } from '../../platform/mail/types.ts';

/** The email receipt sent for each payment. */
export function receiptMail(to: string, r: { what: string; cents: number; at: Date; url: string }): Mail {
  return composeMail(to, {
    subject: `Your FMK receipt: ${formatPrice(r.cents)}`,
    paragraphs: [
      `Thank you. We charged ${formatPrice(r.cents)} USD to your card on ${r.at.toISOString().slice(0, 10)}.`,
      `For: ${r.what}.`,
    ],
    action: { label: 'See your payments', url: r.url },
    footer: ['If you did not make this payment, write to support from the app.'],
  });
}

/** The email receipt for a refund staff made (the same mail path as the payment receipts). */
export function refundMail(to: string, r: { what: string; cents: number; at: Date; url: string; pending: boolean }): Mail {
  return composeMail(to, {
    subject: `Your FMK refund: ${formatPrice(r.cents)}`,
    paragraphs: [
      `We refunded ${formatPrice(r.cents)} USD to the card you paid with, on ${r.at.toISOString().slice(0, 10)}.`,
      `For: ${r.what}.`,
      r.pending
        ? 'The card company is processing it: it may take a few business days to show on your statement.'
        : 'It may take a few business days to show on your statement.',
    ],
    action: { label: 'See your payments', url: r.url },
    footer: ['If you have a question about this refund, write to support from the app.'],
  });
}
