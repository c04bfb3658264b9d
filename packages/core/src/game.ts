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
 * Profile opens (spec section 6: clickable grid profiles 5 / 25 / unlimited) are a choice the
 * viewer spends: any N distinct profiles a UTC day, from anywhere in the grid, counted when first
 * opened; one opened stays open all day. Some never cost an open (see `OpenRelation`), or two men
 * who met the same day could never reach each other.
 */
export interface OpenRelation {
  self: boolean;
  matched: boolean;
  conversation: boolean;
  /** He already chose fuck or marry on the viewer: the viewer must be able to choose back. */
  likedViewer: boolean;
  openedToday: boolean;
}

/** Opens left today for a tier's allowance (-1 unlimited): never below 0. */
export function opensLeft(tier: Tier, openedToday: number, limit: number = TIER_LIMITS[tier].clickableProfiles): number {
  return limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - openedToday);
}

/** Whether a profile opens without spending one of the day's opens. */
export function opensFree(tier: Tier, r: OpenRelation, limit: number = TIER_LIMITS[tier].clickableProfiles): boolean {
  return limit === UNLIMITED || r.self || r.matched || r.conversation || r.likedViewer || r.openedToday;
}

/**
 * What opening a profile does: 'open' (free), 'spend' (counts one of today's opens) or 'locked'
 * (none left; the server answers limit_reached with the plan that lifts it).
 */
export function openOutcome(
  tier: Tier,
  r: OpenRelation,
  openedToday: number,
  limit: number = TIER_LIMITS[tier].clickableProfiles,
): 'open' | 'spend' | 'locked' {
  if (opensFree(tier, r, limit)) return 'open';
  return opensLeft(tier, openedToday, limit) > 0 ? 'spend' : 'locked';
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
