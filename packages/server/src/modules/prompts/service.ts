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
import { auditStaff, type StaffBy } from '../../platform/audit/repo.ts';
import { notFound } from '../../platform/errors.ts';
import {
  addPromptLike,
  adjustPromptUsage,
  answerLikes,
  countAnswerLikes,
  deletePrompt,
  findPrompt,
  findPrompts,
  insertPrompt,
  listAllPrompts,
  removeAnswerLikes,
  removePromptLike,
  seedStarterPrompts,
  updatePrompt,
} from './repo.ts';

export interface PromptServiceDeps {
  db: Db;
  clock: Clock;
}

/**
 * The prompts among `ids` that exist, with their text and whether they are active: the answers on
 * a dating profile name them (profiles checks new answers and shows the current question).
 */
export function promptsByIds(db: Db, ids: readonly string[]): Promise<Map<string, { text: string; isActive: boolean }>> {
  return findPrompts(db, ids);
}

/**
 * After a profile's answers changed: usage counts follow (one per profile answering), and an
 * answer taken off the profile takes its likes with it. Runs in the caller's transaction.
 */
export async function answersChanged(
  db: Db,
  ownerId: string,
  change: { added: readonly string[]; removed: readonly string[] },
  now: Date,
): Promise<void> {
  await adjustPromptUsage(db, change.added, change.removed, now);
  await removeAnswerLikes(db, ownerId, change.removed, now);
}

/** Like counts of an owner's answers, and which of them the viewer liked. */
export function likesOfAnswers(
  db: Db,
  ownerId: string,
  viewerId: string,
): Promise<{ counts: Map<string, number>; mine: Set<string> }> {
  return answerLikes(db, ownerId, viewerId);
}

/**
 * Stores (or takes back) a like of one owner's answer, idempotent both ways, and returns the
 * answer's like count; like_count moves in the same transaction. The caller has checked that the
 * liker may see the answer (profiles' AnswerLikeService); a prompt that is gone is not found.
 */
export async function setAnswerLike(
  db: Db,
  like: { promptId: string; ownerId: string; likerId: string },
  liked: boolean,
  now: Date,
): Promise<number> {
  if (!(await findPrompt(db, like.promptId))) throw notFound(Messages.promptNotFound);
  if (liked) await addPromptLike(db, like, now);
  else await removePromptLike(db, like, now);
  return countAnswerLikes(db, like.promptId, like.ownerId);
}

/** Prompt management for admins (spec section 6). Access is checked by the route's requireAdmin. */
export class PromptAdminService {
  constructor(private readonly deps: PromptServiceDeps) {}

  listAll(): Promise<Prompt[]> {
    return listAllPrompts(this.deps.db);
  }

  /** Each write below commits with its audit row. */
  create(body: z.infer<typeof createPromptBody>, by: StaffBy): Promise<Prompt> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const prompt = await insertPrompt(trx, {
        id: randomUUID(),
        text: body.text,
        category: body.category || DEFAULT_PROMPT_CATEGORY,
        isActive: body.isActive ?? true,
        createdBy: by.adminId,
        at: now,
      });
      await auditStaff(trx, by, { action: 'prompt_create', targetType: 'prompt', targetId: prompt.id, reason: prompt.text, now });
      return prompt;
    });
  }

  async update(id: string, change: z.infer<typeof updatePromptBody>, by: StaffBy): Promise<Prompt> {
    const now = this.deps.clock.now();
    const prompt = await this.deps.db.transaction().execute(async (trx) => {
      const updated = await updatePrompt(trx, id, change, now);
      if (updated) {
        const what = Object.entries(change).map(([k, v]) => `${k}: ${String(v)}`);
        await auditStaff(trx, by, { action: 'prompt_edit', targetType: 'prompt', targetId: id, reason: what.join('; '), now });
      }
      return updated;
    });
    if (!prompt) throw notFound(Messages.promptNotFound);
    return prompt;
  }

  /** Deletes the prompt and its likes. Answers already on profiles stay, with their stored question. */
  async delete(id: string, by: StaffBy): Promise<void> {
    const now = this.deps.clock.now();
    const gone = await this.deps.db.transaction().execute(async (trx) => {
      const prompt = await findPrompt(trx, id);
      if (!prompt || !(await deletePrompt(trx, id))) return false;
      await auditStaff(trx, by, { action: 'prompt_delete', targetType: 'prompt', targetId: id, reason: prompt.text, now });
      return true;
    });
    if (!gone) throw notFound(Messages.promptNotFound);
  }

  async analytics(): Promise<PromptAnalytics> {
    return promptAnalytics(await listAllPrompts(this.deps.db));
  }

  async seed(by: StaffBy): Promise<{ created: number }> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const created = await seedStarterPrompts(trx, now);
      await auditStaff(trx, by, {
        action: 'prompt_seed',
        targetType: 'prompt',
        targetId: 'starter',
        reason: `${created} starter prompts created`,
        now,
      });
      return { created };
    });
  }
}
