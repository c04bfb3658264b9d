import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTED_FEATURES, DEFAULT_FLAGS, type FeatureFlag, GATED_FEATURES, rulesFor } from './flags.ts';
import { TIERS, UNLIMITED } from './tiers.ts';

const edit = (id: string, patch: Partial<FeatureFlag>) => DEFAULT_FLAGS.map((f) => (f.id === id ? { ...f, ...patch } : f));
const atLeast = (a: number, b: number) => a === UNLIMITED || (b !== UNLIMITED && a >= b);

describe('rulesFor reads the fields staff edit', () => {
  it('keeps the seeded tier table when nothing is edited', () => {
    expect(rulesFor(DEFAULT_FLAGS, 'free').limits.messagesPerDay).toBe(5);
    expect(rulesFor(DEFAULT_FLAGS, 'premium').limits.messagesPerDay).toBe(50);
    expect(rulesFor(DEFAULT_FLAGS, 'platinum').limits.messagesPerDay).toBe(UNLIMITED);
    expect(rulesFor(DEFAULT_FLAGS, 'free').has.whoLikesYou).toBe(false);
  });

  it("a counted feature's limit is the free allowance (0 and -1 unlimited) and lifts a paid tier below it", () => {
    expect(rulesFor(edit('messagesPerDay', { limit: 12 }), 'free').limits.messagesPerDay).toBe(12);
    expect(rulesFor(edit('messagesPerDay', { limit: 12 }), 'premium').limits.messagesPerDay).toBe(50);
    expect(rulesFor(edit('messagesPerDay', { limit: 80 }), 'premium').limits.messagesPerDay).toBe(80);
    expect(rulesFor(edit('messagesPerDay', { limit: 0 }), 'free').limits.messagesPerDay).toBe(UNLIMITED);
    expect(rulesFor(edit('messagesPerDay', { limit: -1 }), 'premium').limits.messagesPerDay).toBe(UNLIMITED);
  });

  it('isPremium on a counted feature leaves free users none; on a yes/no feature off opens it to all', () => {
    expect(rulesFor(edit('photos', { isPremium: true }), 'free').limits.photos).toBe(0);
    expect(rulesFor(edit('photos', { isPremium: true }), 'premium').limits.photos).toBe(8);
    expect(rulesFor(edit('whoLikesYou', { isPremium: false }), 'free').has.whoLikesYou).toBe(true);
    expect(rulesFor(edit('boost', { isPremium: false }), 'premium').has.boost).toBe(true);
    expect(rulesFor(edit('boost', { isPremium: true }), 'premium').has.boost).toBe(false);
  });

  it('a higher tier never has less than a lower one, whatever staff set', () => {
    const flag = fc.record({
      id: fc.constantFrom(...COUNTED_FEATURES, ...GATED_FEATURES),
      isEnabled: fc.boolean(),
      isPremium: fc.boolean(),
      limit: fc.option(fc.integer({ min: -1, max: 100 })),
    });
    fc.assert(
      fc.property(fc.array(flag, { maxLength: 6 }), (edits) => {
        let flags = [...DEFAULT_FLAGS];
        for (const e of edits) flags = flags.map((f) => (f.id === e.id ? { ...f, ...e } : f));
        for (let i = 1; i < TIERS.length; i++) {
          const lo = rulesFor(flags, TIERS[i - 1] as (typeof TIERS)[number]);
          const hi = rulesFor(flags, TIERS[i] as (typeof TIERS)[number]);
          for (const id of COUNTED_FEATURES) expect(atLeast(hi.limits[id], lo.limits[id])).toBe(true);
          for (const id of GATED_FEATURES) if (lo.has[id]) expect(hi.has[id]).toBe(true);
        }
      }),
    );
  });
});
