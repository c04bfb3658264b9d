import { type Prompt, STARTER_PROMPTS } from '@fmk/core';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** Starter prompts have fixed ids so that every instance seeds the same rows (spec sections 6, 9). */
export const starterPromptId = (i: number): string => `starter-${i + 1}`;

/** Ensures the ten starter prompts exist. Idempotent and safe when several instances start at once. */
export async function seedStarterPrompts(db: Db, now: Date = new Date()): Promise<void> {
  await db
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
    .execute();
}

export async function listActivePrompts(db: Db): Promise<Prompt[]> {
  const rows = await db
    .selectFrom('prompts')
    .select(['id', 'text', 'category', 'is_active', 'usage_count', 'like_count'])
    .where('is_active', '=', true)
    .orderBy('category')
    .orderBy('text')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    text: r.text,
    category: r.category,
    isActive: r.is_active,
    usageCount: r.usage_count,
    likeCount: r.like_count,
  }));
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
