import { canViewProfile, Messages, type VisibleSections, visibleSections } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../platform/errors.ts';
import { findUserForViewer, type ViewedUserRow } from './repo.ts';

export interface ViewableProfile {
  owner: ViewedUserRow;
  isSelf: boolean;
  sections: VisibleSections;
}

/**
 * The one gate for reading another user (STYLE.md #2): unknown, inactive or banned owners and
 * blocks in either direction are all 'User not found'. Then the owner's modeVisibility decides
 * which sections the viewer sees. There are no matches yet, so nobody is a match.
 */
export async function viewableProfile(db: Db, viewerId: string, ownerId: string): Promise<ViewableProfile> {
  const owner = await findUserForViewer(db, ownerId, viewerId);
  const isSelf = ownerId === viewerId;
  if (!owner || !canViewProfile({ isSelf, ownerActive: owner.is_active, blockedEitherWay: Boolean(owner.blocked) })) {
    throw notFound(Messages.userNotFound);
  }
  return { owner, isSelf, sections: visibleSections(owner.mode_visibility, { isSelf, isMatch: false }) };
}
