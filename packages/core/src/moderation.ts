// Text and image moderation rules: their own entry point (@fmk/core/moderation), so the word
// list never reaches the web bundle through the index.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';

/**
 * What a moderation item scores (spec 4, "aiAnalysis"), each 0..1, or null when nothing scored it:
 * - nudity: NSFW.js's MobileNetV2 on the photo, the sum of its Porn and Hentai probabilities
 *   (Sexy, "suggestive, not explicit", is left out: shirtless photos are ordinary on a men's app);
 * - violence: null; no model here scores it (NSFW.js has no such class);
 * - hate_speech, spam, underage: rules on the photo's caption or the profile text (below).
 */
export interface AiAnalysis {
  nudity: number | null;
  violence: number | null;
  hate_speech: number;
  spam: number;
  underage: number;
}

export type TextScores = Pick<AiAnalysis, 'hate_speech' | 'spam' | 'underage'>;

/** The spec's "moderation confidence 0.8": a profile photo scoring this nudity or more is held for staff. */
export const NUDITY_HOLD_AT = 0.8;

/** The NSFW.js classes that make up the nudity score. */
export const NUDITY_CLASSES = ['Porn', 'Hentai'] as const;

export function nudityOf(predictions: readonly { className: string; probability: number }[]): number {
  const sum = predictions
    .filter((p) => (NUDITY_CLASSES as readonly string[]).includes(p.className))
    .reduce((s, p) => s + p.probability, 0);
  return Math.min(1, Math.max(0, sum));
}

/**
 * The slurs of obscenity's maintained English list (words aimed at a group), not its sexual words:
 * "cock" or "fuck" are not hate speech on an adult men's app, "fag" and "tranny" are.
 */
const SLURS = new Set([
  'abeed',
  'abo',
  'africoon',
  'arabush',
  'boonga',
  'chingchong',
  'chink',
  'dyke',
  'fag',
  'kike',
  'negro',
  'nigger',
  'retard',
  'spastic',
  'tranny',
]);

let slurMatcher: RegExpMatcher | null = null;
function slurs(): RegExpMatcher {
  slurMatcher ??= new RegExpMatcher({
    ...englishDataset.removePhrasesIf((p) => !SLURS.has(p.metadata?.originalWord ?? '')).build(),
    ...englishRecommendedTransformers,
  });
  return slurMatcher;
}

/** 1 when the text carries a slur of the list (leetspeak and spacing tricks included), else 0. */
export function hateSpeechScore(text: string): number {
  return slurs().hasMatch(text) ? 1 : 0;
}

const LINK = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+\.(?:com|net|org|io|me|ly|xyz|link|co)\b/i;
const PHONE = /(?:\+?\d[\s.-]?){9,}/;
const OFF_APP =
  /\b(?:cash\s?app|venmo|paypal|zelle|onlyfans|only\s?fans|telegram|snapchat|snap:|kik|whatsapp|bitcoin|crypto|gift\s?cards?)\b/i;
const MONEY = /(?:[$€£]\s?\d+|\b\d+\s?(?:usd|dollars|eur)\b)/i;

/**
 * Spam: how many of four signs the text shows (a link, a phone number, an off-app or payment
 * handle, a price), a quarter each. One sign alone is common; the item is worth a look from two.
 */
export function spamScore(text: string): number {
  const signs = [LINK, PHONE, OFF_APP, MONEY].filter((re) => re.test(text)).length;
  return signs / 4;
}

/** "16", "16yo", "16 y/o", "16 years old", "age 16", "I'm 16", "im 16": a stated age. */
const STATED_AGE =
  /\b(\d{1,2})\s?(?:yo|y\/o|y\.o\.?|yrs?(?:\s?old)?|years?\s?old)\b|\b(?:age|aged|i'?m|i\s?am)\s?:?\s?(\d{1,2})\b/gi;
const YOUNG_WORDS = /\b(?:teen|teens|teenager|underage|under\s?age|high\s?school|highschool|jail\s?bait|minor|twink\s?1[0-7])\b/i;

/**
 * Underage: 1 when the text states an age under 18, 0.5 for words of youth ('teen', 'high
 * school'; 18 and 19 are teens too, so alone they only ask for a look), else 0.
 */
export function underageScore(text: string): number {
  for (const m of text.matchAll(STATED_AGE)) {
    const age = Number(m[1] ?? m[2]);
    if (age > 0 && age < 18) return 1;
  }
  return YOUNG_WORDS.test(text) ? 0.5 : 0;
}

export function textScores(text: string): TextScores {
  return { hate_speech: hateSpeechScore(text), spam: spamScore(text), underage: underageScore(text) };
}

/** Why an item was flagged, for staff: each score at or above its threshold, the highest first. */
export function flaggedReasons(a: AiAnalysis, holdAt = NUDITY_HOLD_AT): string[] {
  const reasons: [string, number][] = [];
  if (a.nudity !== null && a.nudity >= holdAt) reasons.push(['nudity', a.nudity]);
  if (a.underage >= 0.5) reasons.push(['underage', a.underage]);
  if (a.hate_speech >= 0.5) reasons.push(['hate_speech', a.hate_speech]);
  if (a.spam >= 0.5) reasons.push(['spam', a.spam]);
  return reasons.sort((x, y) => y[1] - x[1]).map(([r]) => r);
}
