import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALERT_STATES,
  asksForPayment,
  canMoveAlert,
  contentFlaggedAlert,
  hasLink,
  mentionsMeetup,
  NEW_ACCOUNT_AGE_MS,
  NEW_ACCOUNT_RECIPIENTS,
  normaliseText,
  REPORTED_SENDER_REPORTERS,
  SAME_TEXT_RECIPIENTS,
  type SenderFacts,
  spamSignals,
  suspiciousSeverity,
} from './alerts.ts';
import { DAY } from './clock.ts';

/** A member who matched, has an old account and writes to one man: nothing to warn about. */
const ORDINARY: SenderFacts = {
  text: 'hey, how was your weekend?',
  isMatch: true,
  accountAgeMs: 30 * DAY,
  sameTextRecipients: 1,
  recipientsToday: 1,
  openReporters: 0,
};

const factsArb = fc.record({
  text: fc.string({ maxLength: 80 }),
  isMatch: fc.boolean(),
  accountAgeMs: fc.nat({ max: 60 * DAY }),
  sameTextRecipients: fc.integer({ min: 1, max: 50 }),
  recipientsToday: fc.integer({ min: 1, max: 100 }),
  openReporters: fc.nat({ max: 10 }),
});

describe('spam and scam patterns', () => {
  it('flags nothing in an ordinary conversation', () => {
    expect(spamSignals(ORDINARY)).toEqual([]);
    expect(spamSignals({ ...ORDINARY, isMatch: false, text: 'nice photos! where do you live?' })).toEqual([]);
  });

  it('flags each pattern at its threshold and not below', () => {
    const blast = { ...ORDINARY, sameTextRecipients: SAME_TEXT_RECIPIENTS };
    expect(spamSignals(blast)).toEqual(['same_text_blast']);
    expect(spamSignals({ ...blast, sameTextRecipients: SAME_TEXT_RECIPIENTS - 1 })).toEqual([]);

    const young = { ...ORDINARY, accountAgeMs: NEW_ACCOUNT_AGE_MS - 1, recipientsToday: NEW_ACCOUNT_RECIPIENTS };
    expect(spamSignals(young)).toEqual(['new_account_blast']);
    expect(spamSignals({ ...young, accountAgeMs: NEW_ACCOUNT_AGE_MS })).toEqual([]);
    expect(spamSignals({ ...young, recipientsToday: NEW_ACCOUNT_RECIPIENTS - 1 })).toEqual([]);

    expect(spamSignals({ ...ORDINARY, openReporters: REPORTED_SENDER_REPORTERS })).toEqual(['reported']);
    expect(spamSignals({ ...ORDINARY, openReporters: REPORTED_SENDER_REPORTERS - 1 })).toEqual([]);
  });

  it('flags links and payment requests from a non-match only', () => {
    const scam = { ...ORDINARY, isMatch: false, text: 'check my pics at www.hot-pics.xyz then send $50 by cash app' };
    expect(spamSignals(scam)).toEqual(['link_from_non_match', 'payment_from_non_match']);
    expect(suspiciousSeverity(spamSignals(scam))).toBe('high');
    expect(spamSignals({ ...scam, isMatch: true })).toEqual([]);
    for (const link of ['https://x.co/a', 'see example.com', 'www.site.org']) expect(hasLink(link), link).toBe(true);
    for (const plain of ['ok.', 'meet at 8.30?', 'I love it']) expect(hasLink(plain), plain).toBe(false);
    for (const pay of ['venmo me', 'buy me a gift card', 'send money please', '€20 and I come'])
      expect(asksForPayment(pay), pay).toBe(true);
    for (const fine of ['I paid for dinner', 'my cash is at home']) expect(asksForPayment(fine), fine).toBe(false);
  });

  it('never flags a match for a link or payment, and a sender passing no threshold never at all', () => {
    fc.assert(
      fc.property(factsArb, (f) => {
        const signals = spamSignals({ ...f, isMatch: true });
        expect(signals).not.toContain('link_from_non_match');
        expect(signals).not.toContain('payment_from_non_match');
        const quiet = {
          ...f,
          isMatch: true,
          sameTextRecipients: Math.min(f.sameTextRecipients, SAME_TEXT_RECIPIENTS - 1),
          recipientsToday: Math.min(f.recipientsToday, NEW_ACCOUNT_RECIPIENTS - 1),
          openReporters: Math.min(f.openReporters, REPORTED_SENDER_REPORTERS - 1),
        };
        expect(spamSignals(quiet)).toEqual([]);
      }),
    );
  });

  it('compares copies of a text case, spacing and punctuation aside', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        expect(normaliseText(`  ${s.toUpperCase()}!!! `)).toBe(normaliseText(s.toLowerCase()));
        expect(normaliseText(normaliseText(s))).toBe(normaliseText(s));
      }),
    );
  });
});

describe('alert states', () => {
  it('goes unread → read → resolved, or dismissed from any open state, and never back', () => {
    expect(canMoveAlert('unread', 'read')).toBe(true);
    expect(canMoveAlert('read', 'resolved')).toBe(true);
    expect(canMoveAlert('unread', 'resolved')).toBe(true);
    expect(canMoveAlert('resolved', 'dismissed')).toBe(true);
    expect(canMoveAlert('resolved', 'read')).toBe(false);
    fc.assert(
      fc.property(fc.constantFrom(...ALERT_STATES), (to) => {
        expect(canMoveAlert('dismissed', to)).toBe(false);
        expect(canMoveAlert(to, 'unread')).toBe(false);
      }),
    );
  });
});

describe('meetup phrases', () => {
  it('hears a plan to meet, whatever the case and punctuation, and not ordinary chat', () => {
    for (const text of [
      'Wanna meet up later?',
      "Let's meet tonight!",
      'MEETUP at the bar?',
      'come over to mine',
      'can you host?',
      'my place or yours',
      'grab a coffee tomorrow?',
      'see you there at 9',
      'up for a hook-up',
    ])
      expect(mentionsMeetup(text), text).toBe(true);
    for (const text of ['nice to meet everyone here', 'how was your weekend?', 'I placed an order', '', 'dated photo lol'])
      expect(mentionsMeetup(text), text).toBe(false);
  });

  it('reads the same with any added shouting or punctuation around a phrase', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('meet up', 'come over', 'hang out', 'your place'),
        fc.constantFrom('!', '?', '...', ' '),
        (p, punct) => {
          expect(mentionsMeetup(`${p.toUpperCase()}${punct}`)).toBe(true);
        },
      ),
    );
  });
});

describe('content_flagged words', () => {
  it('says why, and what the owner can expect, for each outcome', () => {
    const held = contentFlaggedAlert('held', 'profile_photo', ['nudity', 'spam']);
    expect(held.title).toBe('Your profile photo is in review');
    expect(held.message).toContain('may show nudity and its text looks like advertising');
    expect(held.message).toContain('only you can see it');
    const removed = contentFlaggedAlert('rejected', 'chat_photo', []);
    expect(removed).toMatchObject({ title: 'Your chat photo was removed', severity: 'medium' });
    expect(removed.message).not.toContain('because');
  });
});
