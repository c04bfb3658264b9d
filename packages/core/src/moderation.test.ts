import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flaggedReasons, hateSpeechScore, NUDITY_HOLD_AT, nudityOf, spamScore, textScores, underageScore } from './moderation.ts';

describe('text moderation rules', () => {
  it('finds a slur of the word list, disguised or not, and leaves sexual words alone', () => {
    expect(hateSpeechScore('no fags please')).toBe(1);
    expect(hateSpeechScore('no f4gs please')).toBe(1);
    expect(hateSpeechScore('looking for cock, fuck buddies welcome')).toBe(0);
    expect(hateSpeechScore('hiking, coffee and good films')).toBe(0);
  });

  it('counts spam signs: a link, a phone number, a payment handle, a price', () => {
    expect(spamScore('Love hiking and dogs')).toBe(0);
    expect(spamScore('see more at www.example.com')).toBe(0.25);
    expect(spamScore('cashapp me $50 for pics at hot.xyz, call +1 555 123 4567')).toBe(1);
  });

  it('flags a stated age under 18 for sure and youth words for a look', () => {
    for (const text of ['16yo looking', "I'm 15", 'age: 17', '17 years old, bored', '14 y/o'])
      expect(underageScore(text)).toBe(1);
    expect(underageScore('teen looking for older')).toBe(0.5);
    for (const text of ['I am 18', '25yo, into climbing', 'together for 10 years', 'age 40']) expect(underageScore(text)).toBe(0);
  });

  it('any stated age from 1 to 17 is underage and from 18 up is not (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), fc.constantFrom('yo', ' y/o', ' years old', 'yrs'), (age, unit) => {
        expect(underageScore(`hi, ${age}${unit} here`)).toBe(age < 18 ? 1 : 0);
      }),
    );
  });

  it('every score stays within 0..1 whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        for (const v of Object.values(textScores(text))) expect(v >= 0 && v <= 1).toBe(true);
      }),
    );
  });
});

describe('nudity from the model', () => {
  it('is Porn plus Hentai, never Sexy or Neutral, clamped to 1', () => {
    expect(
      nudityOf([
        { className: 'Porn', probability: 0.5 },
        { className: 'Hentai', probability: 0.25 },
        { className: 'Sexy', probability: 0.2 },
        { className: 'Neutral', probability: 0.05 },
      ]),
    ).toBe(0.75);
    expect(
      nudityOf([
        { className: 'Porn', probability: 0.7 },
        { className: 'Hentai', probability: 0.7 },
      ]),
    ).toBe(1);
  });

  it('names the reasons that reach their thresholds, strongest first', () => {
    const clean = { nudity: 0.1, violence: null, hate_speech: 0, spam: 0.25, underage: 0 };
    expect(flaggedReasons(clean)).toEqual([]);
    expect(flaggedReasons({ ...clean, nudity: NUDITY_HOLD_AT, underage: 1 })).toEqual(['underage', 'nudity']);
    expect(flaggedReasons({ ...clean, nudity: 0.5 }, 0.4)).toEqual(['nudity']);
  });
});
