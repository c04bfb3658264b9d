import { type Actor, type Clock, Messages, type Subject } from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { notFound } from '../../platform/errors.ts';
import { setAnswerLike } from '../prompts/service.ts';
import { viewableProfile } from './access.ts';

/** The owner as the rules see him, his communication safety aside. */
const withoutContactSafety = (s: Subject): Subject => ({
  ...s,
  settings: { ...s.settings, blockUnverifiedUsers: false, requirePhoneVerification: false },
});

export interface AnswerLikeServiceDeps {
  db: Db;
  clock: Clock;
}

/**
 * Liking another user's answer to a prompt (spec section 3: likes stored apart, counted in
 * likeCount). Who may like an answer is the profile's gate, so this lives with profiles; prompts
 * stores the like.
 */
export class AnswerLikeService {
  constructor(private readonly deps: AnswerLikeServiceDeps) {}

  /**
   * Likes (or unlikes) one owner's answer. Idempotent both ways. The owner must be readable by the
   * caller (blocks, inactive: 404) with the dating section visible, and must have answered the
   * prompt; nobody likes their own answers. like_count moves in the same transaction.
   */
  async setLike(actor: Actor, ownerId: string, promptId: string, liked: boolean): Promise<{ liked: boolean; likeCount: number }> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const view = await viewableProfile(trx, actor, ownerId, now);
      // Not one's own answers (400); only answers in a dating section he sees (404); a new like is
      // a contact his communication safety may refuse (403), taking one back reaches nobody.
      requireAccess(actor, 'prompt.like', liked ? view.subject : withoutContactSafety(view.subject));
      const answered = view.owner.dating_profile.prompts.some((p) => p.promptId === promptId);
      if (!answered) throw notFound(Messages.promptNotFound);
      return { liked, likeCount: await setAnswerLike(trx, { promptId, ownerId, likerId: actor.id }, liked, now) };
    });
  }
}
