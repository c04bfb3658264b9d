import { type Prompt, STARTER_PROMPTS } from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** Starter prompts have fixed ids so that every instance seeds the same rows (spec sections 6, 9). */
export const starterPromptId = (i: number): string => `starter-${i + 1}`;

const PROMPT_COLUMNS = ['id', 'text', 'category', 'is_active', 'usage_count', 'like_count'] as const;

function toPrompt(r: {
  id: string;
  text: string;
  category: string;
  is_active: boolean;
  usage_count: number;
  like_count: number;
}): Prompt {
  return {
    id: r.id,
    text: r.text,
    category: r.category,
    isActive: r.is_active,
    usageCount: r.usage_count,
    likeCount: r.like_count,
  };
}

/**
 * Ensures the ten starter prompts exist; returns how many it created. Idempotent and safe when
 * several instances start at once; a starter an admin deleted comes back, one switched off stays off.
 */
export async function seedStarterPrompts(db: Db, now: Date = new Date()): Promise<number> {
  const rows = await db
    .insertInto('prompts')
    .values(
      STARTER_PROMPTS.map((p, i) => ({
        id: starterPromptId(i),
        text: p.text,
        category: p.category,
        created_by: 'system',
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .execute();
  return rows.length;
}

export async function listActivePrompts(db: Db): Promise<Prompt[]> {
  const rows = await db
    .selectFrom('prompts')
    .select(PROMPT_COLUMNS)
    .where('is_active', '=', true)
    .orderBy('category')
    .orderBy('text')
    .execute();
  return rows.map(toPrompt);
}

/** Every prompt, inactive ones too (admins only). */
export async function listAllPrompts(db: Db): Promise<Prompt[]> {
  const rows = await db.selectFrom('prompts').select(PROMPT_COLUMNS).orderBy('category').orderBy('text').orderBy('id').execute();
  return rows.map(toPrompt);
}

export async function findPrompt(db: Db, id: string): Promise<Prompt | null> {
  const row = await db.selectFrom('prompts').select(PROMPT_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toPrompt(row) : null;
}

export async function insertPrompt(
  db: Db,
  p: { id: string; text: string; category: string; isActive: boolean; createdBy: string; at: Date },
): Promise<Prompt> {
  const row = await db
    .insertInto('prompts')
    .values({
      id: p.id,
      text: p.text,
      category: p.category,
      is_active: p.isActive,
      created_by: p.createdBy,
      created_at: p.at,
      updated_at: p.at,
    })
    .returning(PROMPT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toPrompt(row);
}

export async function updatePrompt(
  db: Db,
  id: string,
  change: { text?: string | undefined; category?: string | undefined; isActive?: boolean | undefined },
  at: Date,
): Promise<Prompt | null> {
  const row = await db
    .updateTable('prompts')
    .set({
      updated_at: at,
      ...(change.text !== undefined ? { text: change.text } : {}),
      ...(change.category !== undefined ? { category: change.category } : {}),
      ...(change.isActive !== undefined ? { is_active: change.isActive } : {}),
    })
    .where('id', '=', id)
    .returning(PROMPT_COLUMNS)
    .executeTakeFirst();
  return row ? toPrompt(row) : null;
}

/** Deletes a prompt and its likes; false when there was no such prompt. */
export async function deletePrompt(db: Db, id: string): Promise<boolean> {
  await db.deleteFrom('prompt_likes').where('prompt_id', '=', id).execute();
  const r = await db.deleteFrom('prompts').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The prompts among `ids` that exist, with their text and whether they are active. */
export async function findPrompts(db: Db, ids: readonly string[]): Promise<Map<string, { text: string; isActive: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('prompts').select(['id', 'text', 'is_active']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { text: r.text, isActive: r.is_active }]));
}

/** Keeps usage_count equal to the number of dating profiles answering each prompt. */
export async function adjustPromptUsage(db: Db, added: readonly string[], removed: readonly string[], now: Date): Promise<void> {
  if (added.length > 0) {
    await db
      .updateTable('prompts')
      .set({ usage_count: sql`usage_count + 1`, updated_at: now })
      .where('id', 'in', added)
      .execute();
  }
  if (removed.length > 0) {
    await db
      .updateTable('prompts')
      .set({ usage_count: sql`greatest(usage_count - 1, 0)`, updated_at: now })
      .where('id', 'in', removed)
      .execute();
  }
}

/** Moves prompts.like_count by `delta` (it is the total of prompt_likes rows across owners). */
async function shiftLikeCount(db: Db, promptId: string, delta: number, now: Date): Promise<void> {
  await db
    .updateTable('prompts')
    .set({ like_count: sql`greatest(like_count + ${delta}, 0)`, updated_at: now })
    .where('id', '=', promptId)
    .execute();
}

/** Likes one owner's answer; returns whether a like was added (false when it already existed). */
export async function addPromptLike(
  db: Db,
  like: { promptId: string; ownerId: string; likerId: string },
  now: Date,
): Promise<boolean> {
  const row = await db
    .insertInto('prompt_likes')
    .values({ prompt_id: like.promptId, owner_id: like.ownerId, liker_id: like.likerId, created_at: now })
    .onConflict((oc) => oc.columns(['prompt_id', 'owner_id', 'liker_id']).doNothing())
    .returning('prompt_id')
    .executeTakeFirst();
  if (!row) return false;
  await shiftLikeCount(db, like.promptId, 1, now);
  return true;
}

/** Removes a like; returns whether there was one. */
export async function removePromptLike(
  db: Db,
  like: { promptId: string; ownerId: string; likerId: string },
  now: Date,
): Promise<boolean> {
  const r = await db
    .deleteFrom('prompt_likes')
    .where('prompt_id', '=', like.promptId)
    .where('owner_id', '=', like.ownerId)
    .where('liker_id', '=', like.likerId)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) return false;
  await shiftLikeCount(db, like.promptId, -1, now);
  return true;
}

/** Drops every like of an owner's answers to `promptIds` (the answers left the profile). */
export async function removeAnswerLikes(db: Db, ownerId: string, promptIds: readonly string[], now: Date): Promise<void> {
  if (promptIds.length === 0) return;
  const gone = await db
    .deleteFrom('prompt_likes')
    .where('owner_id', '=', ownerId)
    .where('prompt_id', 'in', promptIds)
    .returning('prompt_id')
    .execute();
  const per = new Map<string, number>();
  for (const g of gone) per.set(g.prompt_id, (per.get(g.prompt_id) ?? 0) + 1);
  for (const [id, n] of per) await shiftLikeCount(db, id, -n, now);
}

/** Like counts of an owner's answers, and which of them the viewer liked. */
export async function answerLikes(
  db: Db,
  ownerId: string,
  viewerId: string,
): Promise<{ counts: Map<string, number>; mine: Set<string> }> {
  const rows = await db
    .selectFrom('prompt_likes')
    .select((eb) => [
      'prompt_id',
      eb.fn.countAll<number>().as('n'),
      eb.fn.countAll<number>().filterWhere('liker_id', '=', viewerId).as('mine'),
    ])
    .where('owner_id', '=', ownerId)
    .groupBy('prompt_id')
    .execute();
  return {
    counts: new Map(rows.map((r) => [r.prompt_id, Number(r.n)])),
    mine: new Set(rows.filter((r) => Number(r.mine) > 0).map((r) => r.prompt_id)),
  };
}

export async function countAnswerLikes(db: Db, promptId: string, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('prompt_likes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('prompt_id', '=', promptId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
