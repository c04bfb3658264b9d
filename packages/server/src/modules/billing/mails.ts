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
