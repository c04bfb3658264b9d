import type { Tier } from './tiers.ts';
import { TIER_LIMITS, UNLIMITED } from './tiers.ts';

/** The game (spec sections 1, 3, 4): only fuck and marry are stored; kill moves on. */
export type GameAction = 'fuck' | 'marry' | 'kill';
export type StoredAction = 'fuck' | 'marry';
export type MatchType = 'perfect-fuck' | 'perfect-marry' | 'mixed';

/** perfect-fuck when both chose fuck, perfect-marry when both chose marry, otherwise mixed. */
export function matchTypeOf(a: StoredAction, b: StoredAction): MatchType {
  if (a === 'fuck' && b === 'fuck') return 'perfect-fuck';
  if (a === 'marry' && b === 'marry') return 'perfect-marry';
  return 'mixed';
}

/** A match's two users, sorted, as the spec stores them. */
export function matchPair(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}

/** Pending count = fuck selections + marry selections toward me, matched ones excluded. */
export function pendingCount(selections: { fuck: number; marry: number }): number {
  return selections.fuck + selections.marry;
}

/** The Messages badge: unread conversations plus pending matches; '9+' above 9, nothing at 0. */
export function badgeLabel(count: number): string | null {
  if (count <= 0) return null;
  return count > 9 ? '9+' : String(count);
}

/**
 * Which profiles of the viewer's grid open (spec section 6: 5 / 25 / unlimited): the first N in
 * the viewer's grid order, plus matches and conversation partners, which always open.
 */
export function clickableSet(gridOrder: readonly string[], tier: Tier, alwaysOpen: Iterable<string> = []): Set<string> {
  const limit = TIER_LIMITS[tier].clickableProfiles;
  const open = new Set(limit === UNLIMITED ? gridOrder : gridOrder.slice(0, limit));
  for (const id of alwaysOpen) open.add(id);
  return open;
}

/** Today's super selections left (-1 unlimited) for an allowance from SUPER_PER_DAY. */
export function superRemaining(allowance: number, usedToday: number): number {
  return allowance === UNLIMITED ? UNLIMITED : Math.max(0, allowance - usedToday);
}

/** The upgrade text when the day's super selections are used up (a 403 limit_reached). */
export function superLimitMessage(tier: Tier): string {
  return tier === 'free'
    ? 'Super likes are used up for today. Get more with Premium membership...'
    : 'Super likes are used up for today. Get unlimited super likes with Platinum membership...';
}

/** The start of the UTC day of `at`: super selections are counted per UTC calendar day. */
export function utcDayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}
