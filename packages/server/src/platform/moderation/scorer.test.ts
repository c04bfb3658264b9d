import { afterAll, describe, expect, it } from 'vitest';
import { explicitLookingImage, neutralImage } from '../../../test/moderation-images.ts';
import { NsfwScorer } from './scorer.ts';

// Real inference: the NSFW.js model in its worker thread, loaded once for this file.
const scorer = new NsfwScorer();
afterAll(() => scorer.close());

describe('the NSFW.js scorer (real model, worker thread)', () => {
  it('scores a generated explicit-looking set clearly above a neutral set', async () => {
    const neutral = await Promise.all([0, 1, 2, 3, 4].map(async (i) => scorer.score(await neutralImage(i))));
    const explicit = await Promise.all([0, 1, 2, 3, 4].map(async (i) => scorer.score(await explicitLookingImage(i))));
    const mean = (xs: { nudity: number }[]) => xs.reduce((s, x) => s + x.nudity, 0) / xs.length;
    // Every image of the one set above every image of the other: at a threshold between them
    // the model's precision and recall on these ten images are both 1.
    expect(Math.min(...explicit.map((s) => s.nudity))).toBeGreaterThan(Math.max(...neutral.map((s) => s.nudity)));
    expect(mean(explicit)).toBeGreaterThan(10 * mean(neutral));
    for (const s of [...neutral, ...explicit]) {
      expect(s.nudity).toBeGreaterThanOrEqual(0);
      expect(s.nudity).toBeLessThanOrEqual(1);
      expect(s.predictions.map((p) => p.className).sort()).toEqual(['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy']);
    }
  });

  it('answers an unreadable image with an error and keeps scoring the next one', async () => {
    await expect(scorer.score(Buffer.from('not an image'))).rejects.toThrow(/moderation model/);
    const next = await scorer.score(await neutralImage(0));
    expect(next.nudity).toBeLessThan(0.1);
  });
});
