import { type Actor, can, Messages, type Subject, type VisibleSections } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { loadSubject, requireAccess } from '../../platform/access.ts';
import { notFound } from '../../platform/errors.ts';
import { findUserForViewer, type ViewedUserRow } from './repo.ts';

export interface ViewableProfile {
  owner: ViewedUserRow;
  /** The owner as the access rules read him, for the checks that follow (the open, a like). */
  subject: Subject;
  isSelf: boolean;
  sections: VisibleSections;
  /** His cruising and health privacy: Right Now and availability, and safety info, for this viewer. */
  shows: { rightNow: boolean; health: boolean };
}

/**
 * The one gate for reading another user (core's `can`, asked first): profile.view, which answers unknown,
 * inactive or banned owners and blocks in either direction all as 'User not found'. Then the
 * owner's modeVisibility decides which sections the viewer sees, a match seeing what the owner
 * shows matches.
 */
export async function viewableProfile(db: Db, actor: Actor, ownerId: string, now: Date): Promise<ViewableProfile> {
  const subject = await loadSubject(db, actor, ownerId, now);
  requireAccess(actor, 'profile.view', subject);
  const owner = await findUserForViewer(db, ownerId, actor.id);
  // Gone between the two reads: as if never there.
  if (!owner || !subject) throw notFound(Messages.userNotFound);
  return {
    owner,
    subject,
    isSelf: ownerId === actor.id,
    sections: {
      dating: can(actor, 'profile.seeDating', subject).allowed,
      now: can(actor, 'profile.seeNow', subject).allowed,
    },
    shows: {
      rightNow: can(actor, 'profile.seeRightNow', subject).allowed,
      health: can(actor, 'profile.seeHealth', subject).allowed,
    },
  };
}
