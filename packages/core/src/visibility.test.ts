import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODE_VISIBILITY, type ModeVisibility } from './profile.ts';
import { canViewProfile, presenceFor, visibleSections } from './visibility.ts';

/** All 32 visibility settings: small enough to check every one. */
const ALL_VISIBILITIES: ModeVisibility[] = Array.from({ length: 32 }, (_, i) => ({
  showInDating: Boolean(i & 1),
  showInNow: Boolean(i & 2),
  datingVisibleToAll: Boolean(i & 4),
  nowVisibleToAll: Boolean(i & 8),
  hideFromMatches: Boolean(i & 16),
}));

describe('visibleSections', () => {
  it('with the defaults shows the dating profile to everyone and the now profile to matches only', () => {
    expect(visibleSections(DEFAULT_MODE_VISIBILITY, { isSelf: false, isMatch: false })).toEqual({ dating: true, now: false });
    expect(visibleSections(DEFAULT_MODE_VISIBILITY, { isSelf: false, isMatch: true })).toEqual({ dating: true, now: false });
    const nowOn = { ...DEFAULT_MODE_VISIBILITY, showInNow: true };
    expect(visibleSections(nowOn, { isSelf: false, isMatch: false })).toEqual({ dating: true, now: false });
    expect(visibleSections(nowOn, { isSelf: false, isMatch: true })).toEqual({ dating: true, now: true });
  });

  it('shows the owner everything', () => {
    for (const v of ALL_VISIBILITIES)
      for (const isMatch of [false, true])
        expect(visibleSections(v, { isSelf: true, isMatch })).toEqual({ dating: true, now: true });
  });

  it('never shows a section the owner does not show in that mode', () => {
    for (const v of ALL_VISIBILITIES) {
      for (const isMatch of [false, true]) {
        const s = visibleSections(v, { isSelf: false, isMatch });
        if (!v.showInDating) expect(s.dating).toBe(false);
        if (!v.showInNow) expect(s.now).toBe(false);
      }
    }
  });

  it('shows a stranger a section only when it is visible to all', () => {
    for (const v of ALL_VISIBILITIES) {
      expect(visibleSections(v, { isSelf: false, isMatch: false })).toEqual({
        dating: v.showInDating && v.datingVisibleToAll,
        now: v.showInNow && v.nowVisibleToAll,
      });
    }
  });

  it('shows a match every shown section, unless the owner hides from matches', () => {
    for (const v of ALL_VISIBILITIES) {
      const s = visibleSections(v, { isSelf: false, isMatch: true });
      expect(s).toEqual(v.hideFromMatches ? { dating: false, now: false } : { dating: v.showInDating, now: v.showInNow });
    }
  });

  it('hideFromMatches changes nothing for strangers', () => {
    for (const v of ALL_VISIBILITIES) {
      const other = { ...v, hideFromMatches: !v.hideFromMatches };
      expect(visibleSections(v, { isSelf: false, isMatch: false })).toEqual(
        visibleSections(other, { isSelf: false, isMatch: false }),
      );
    }
  });
});

describe('canViewProfile', () => {
  it('hides inactive owners and blocks in either direction, but never the owner from themself', () => {
    expect(canViewProfile({ isSelf: false, ownerActive: true, blockedEitherWay: false })).toBe(true);
    expect(canViewProfile({ isSelf: false, ownerActive: false, blockedEitherWay: false })).toBe(false);
    expect(canViewProfile({ isSelf: false, ownerActive: true, blockedEitherWay: true })).toBe(false);
    expect(canViewProfile({ isSelf: true, ownerActive: true, blockedEitherWay: false })).toBe(true);
  });
});

describe('presenceFor', () => {
  it('hides online status and last seen by the owner settings, never from the owner', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.option(fc.date({ noInvalidDate: true })),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (online, seen, so, sl, self) => {
          const p = presenceFor({ isOnline: online, lastSeen: seen }, { showOnlineStatus: so, showLastActive: sl }, self);
          expect(p.isOnline).toBe(self || so ? online : null);
          expect(p.lastSeen).toBe(self || sl ? seen : null);
        },
      ),
    );
  });
});
