import type { ModeVisibility } from './profile.ts';

/** How the viewer stands to the profile's owner. */
export interface ViewerRelation {
  /** The owner looking at their own profile. */
  isSelf: boolean;
  /** The viewer and the owner have matched (spec section 4 "Match"). */
  isMatch: boolean;
}

/** Which mode sections of a profile a viewer may see. */
export interface VisibleSections {
  dating: boolean;
  now: boolean;
}

/**
 * The owner's modeVisibility applied to one viewer (spec section 3 "modeVisibility").
 * A section shows when the owner shows it in that mode and either shows it to everyone or the
 * viewer is a match; hideFromMatches hides both sections from matches. The owner sees all.
 */
export function visibleSections(v: ModeVisibility, rel: ViewerRelation): VisibleSections {
  if (rel.isSelf) return { dating: true, now: true };
  if (rel.isMatch && v.hideFromMatches) return { dating: false, now: false };
  return {
    dating: v.showInDating && (v.datingVisibleToAll || rel.isMatch),
    now: v.showInNow && (v.nowVisibleToAll || rel.isMatch),
  };
}

/**
 * Whether a profile can be read at all. An inactive (deactivated or banned) owner, or a block in
 * either direction, makes the profile not found, never "forbidden": the viewer must not learn
 * that they were blocked. The owner can always read their own.
 */
export function canViewProfile(p: { isSelf: boolean; ownerActive: boolean; blockedEitherWay: boolean }): boolean {
  if (p.isSelf) return true;
  return p.ownerActive && !p.blockedEitherWay;
}

/**
 * Online status and last seen as others see them: each is hidden (null) when the owner turned
 * off showOnlineStatus / showLastActive (spec section 3 "User settings"). The owner sees both.
 */
export function presenceFor(
  owner: { isOnline: boolean; lastSeen: Date | null },
  settings: { showOnlineStatus: boolean; showLastActive: boolean },
  isSelf: boolean,
): { isOnline: boolean | null; lastSeen: Date | null } {
  return {
    isOnline: isSelf || settings.showOnlineStatus ? owner.isOnline : null,
    lastSeen: isSelf || settings.showLastActive ? owner.lastSeen : null,
  };
}
