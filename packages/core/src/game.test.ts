import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badgeLabel, clickableSet, matchPair, matchTypeOf, pendingCount } from './game.ts';

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

  it('opens the first 5 / 25 / all grid profiles by tier, plus matches and partners', () => {
    const grid = Array.from({ length: 40 }, (_, i) => `u${i}`);
    expect(clickableSet(grid, 'free').size).toBe(5);
    expect(clickableSet(grid, 'free').has('u4')).toBe(true);
    expect(clickableSet(grid, 'free').has('u5')).toBe(false);
    expect(clickableSet(grid, 'premium').size).toBe(25);
    expect(clickableSet(grid, 'platinum').size).toBe(40);
    expect(clickableSet(grid, 'free', ['u30', 'x']).has('u30')).toBe(true);
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 60 }), (ids) => {
        const s = clickableSet(ids, 'free');
        expect(s.size).toBe(Math.min(5, ids.length));
      }),
    );
  });
});
