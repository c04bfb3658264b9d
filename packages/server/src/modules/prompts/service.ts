import { randomUUID } from 'node:crypto';
import {
  type Clock,
  type createPromptBody,
  DEFAULT_PROMPT_CATEGORY,
  Messages,
  type Prompt,
  type PromptAnalytics,
  promptAnalytics,
  type updatePromptBody,
} from '@fmk/core';
import type { z } from 'zod';
import type { Db } from '../../db/index.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { viewableProfile } from '../profiles/access.ts';
import {
  addPromptLike,
  countAnswerLikes,
  deletePrompt,
  findPrompt,
  insertPrompt,
  listAllPrompts,
  removePromptLike,
  seedStarterPrompts,
  updatePrompt,
} from './repo.ts';

export interface PromptServiceDeps {
  db: Db;
  clock: Clock;
}

/** Liking another user's answer to a prompt (spec section 3: likes stored apart, counted in likeCount). */
export class PromptLikeService {
  constructor(private readonly deps: PromptServiceDeps) {}

  /**
   * Likes (or unlikes) one owner's answer. Idempotent both ways. The owner must be readable by the
   * caller (blocks, inactive: 404) with the dating section visible, and must have answered the
   * prompt; nobody likes their own answers. like_count moves in the same transaction.
   */
  async setLike(
    likerId: string,
    ownerId: string,
    promptId: string,
    liked: boolean,
  ): Promise<{ liked: boolean; likeCount: number }> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const view = await viewableProfile(trx, likerId, ownerId);
      if (view.isSelf) throw badRequest(Messages.ownPromptLike);
      const answered = view.owner.dating_profile.prompts.some((p) => p.promptId === promptId);
      if (!view.sections.dating || !answered || !(await findPrompt(trx, promptId))) throw notFound(Messages.promptNotFound);
      const like = { promptId, ownerId, likerId };
      if (liked) await addPromptLike(trx, like, now);
      else await removePromptLike(trx, like, now);
      return { liked, likeCount: await countAnswerLikes(trx, promptId, ownerId) };
    });
  }
}

/** Prompt management for admins (spec section 6). Access is checked by the route's requireAdmin. */
export class PromptAdminService {
  constructor(private readonly deps: PromptServiceDeps) {}

  listAll(): Promise<Prompt[]> {
    return listAllPrompts(this.deps.db);
  }

  create(adminId: string, body: z.infer<typeof createPromptBody>): Promise<Prompt> {
    return insertPrompt(this.deps.db, {
      id: randomUUID(),
      text: body.text,
      category: body.category || DEFAULT_PROMPT_CATEGORY,
      isActive: body.isActive ?? true,
      createdBy: adminId,
      at: this.deps.clock.now(),
    });
  }

  async update(id: string, change: z.infer<typeof updatePromptBody>): Promise<Prompt> {
    const prompt = await updatePrompt(this.deps.db, id, change, this.deps.clock.now());
    if (!prompt) throw notFound(Messages.promptNotFound);
    return prompt;
  }

  /** Deletes the prompt and its likes. Answers already on profiles stay, with their stored question. */
  async delete(id: string): Promise<void> {
    const gone = await this.deps.db.transaction().execute((trx) => deletePrompt(trx, id));
    if (!gone) throw notFound(Messages.promptNotFound);
  }

  async analytics(): Promise<PromptAnalytics> {
    return promptAnalytics(await listAllPrompts(this.deps.db));
  }

  async seed(): Promise<{ created: number }> {
    return { created: await seedStarterPrompts(this.deps.db, this.deps.clock.now()) };
  }
}
