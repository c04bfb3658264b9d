import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badgeLabel, matchPair, matchTypeOf, openOutcome, opensLeft, pendingCount } from './game.ts';
import { TIER_LIMITS, TIERS } from './tiers.ts';

describe('the game', () => {
  it('types a match by both actions', () => {
    expect(matchTypeOf('fuck', 'fuck')).toBe('perfect-fuck');
    expect(matchTypeOf('marry', 'marry')).toBe('perfect-marry');
    expect(matchTypeOf('fuck', 'marry')).toBe('mixed');
    expect(matchTypeOf('marry', 'fuck')).toBe('mixed');
  });

  it('stores a pair sorted, whoever acts first', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(matchPair(a, b)).toEqual(matchPair(b, a));
        const [x, y] = matchPair(a, b);
        expect(x <= y).toBe(true);
      }),
    );
  });

  it('counts pending selections and caps the badge at 9+', () => {
    expect(pendingCount({ fuck: 2, marry: 3 })).toBe(5);
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(9)).toBe('9');
    expect(badgeLabel(10)).toBe('9+');
  });

  it('lets a viewer spend 5 / 25 / unlimited opens a day, never fewer than 0 left', () => {
    expect(opensLeft('free', 0)).toBe(5);
    expect(opensLeft('free', 4)).toBe(1);
    expect(opensLeft('premium', 0)).toBe(25);
    expect(opensLeft('platinum', 1000)).toBe(-1);
    fc.assert(
      fc.property(fc.constantFrom(...TIERS), fc.nat(200), (tier, used) => {
        const left = opensLeft(tier, used);
        if (tier === 'platinum') expect(left).toBe(-1);
        else expect(left).toBe(Math.max(0, TIER_LIMITS[tier].clickableProfiles - used));
      }),
    );
  });

  it('never spends an open on self, matches, partners, likers or one already opened today', () => {
    const none = { self: false, matched: false, conversation: false, likedViewer: false, openedToday: false };
    expect(openOutcome('free', none, 0)).toBe('spend');
    expect(openOutcome('free', none, 5)).toBe('locked');
    expect(openOutcome('premium', none, 24)).toBe('spend');
    expect(openOutcome('premium', none, 25)).toBe('locked');
    expect(openOutcome('platinum', none, 10_000)).toBe('open');
    fc.assert(
      fc.property(
        fc.constantFrom(...TIERS),
        fc.record({
          self: fc.boolean(),
          matched: fc.boolean(),
          conversation: fc.boolean(),
          likedViewer: fc.boolean(),
          openedToday: fc.boolean(),
        }),
        fc.nat(100),
        (tier, r, used) => {
          const out = openOutcome(tier, r, used);
          const free = r.self || r.matched || r.conversation || r.likedViewer || r.openedToday || tier === 'platinum';
          expect(out === 'open').toBe(free);
          if (!free) expect(out).toBe(opensLeft(tier, used) > 0 ? 'spend' : 'locked');
        },
      ),
    );
  });
});
