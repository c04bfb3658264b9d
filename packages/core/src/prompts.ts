import type { Prompt, PromptAnalytics } from './api.ts';

/** Prompt categories and the ten starter prompts (spec sections 6, 9). */
export const PROMPT_CATEGORIES = [
  'General',
  'Compatibility',
  'Lifestyle',
  'Interests',
  'Personality',
  'Dating',
  'Personal',
  'Relationships',
] as const;
export type PromptCategory = (typeof PROMPT_CATEGORIES)[number];
export const DEFAULT_PROMPT_CATEGORY: PromptCategory = 'General';

export const STARTER_PROMPTS: readonly { text: string; category: PromptCategory }[] = [
  { text: "We'll get along if...", category: 'Compatibility' },
  { text: 'My ideal Sunday looks like...', category: 'Lifestyle' },
  { text: 'I geek out on...', category: 'Interests' },
  { text: 'My friends would describe me as...', category: 'Personality' },
  { text: 'The best first date is...', category: 'Dating' },
  { text: 'A green flag I look for...', category: 'Dating' },
  { text: "Something I'll never shut up about...", category: 'Personal' },
  { text: 'My most irrational fear...', category: 'Personal' },
  { text: "I'm looking for someone who...", category: 'Relationships' },
  { text: 'The way to win me over is...', category: 'Relationships' },
];

/** A prompt's category for grouping: a blank category counts as General (spec section 6). */
export function promptCategoryOf(category: string | null | undefined): string {
  return category?.trim() || DEFAULT_PROMPT_CATEGORY;
}

export const TOP_PROMPTS = 10;

/**
 * Prompt analytics for admins (spec section 6): totals of prompts, active prompts, usage and
 * likes; the top 10 by usage (ties: more likes first, then by text, so the list is stable);
 * counts by category with General for a blank one.
 */
export function promptAnalytics(prompts: readonly Prompt[]): PromptAnalytics {
  // Counted in a Map: a category is staff's free text, and 'toString' or '__proto__' read through
  // a plain object's prototype (a function, a setter) instead of a count.
  const counts = new Map<string, number>();
  for (const p of prompts) {
    const c = promptCategoryOf(p.category);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const byCategory: Record<string, number> = Object.fromEntries(counts);
  const topPrompts = [...prompts]
    .sort((a, b) => b.usageCount - a.usageCount || b.likeCount - a.likeCount || a.text.localeCompare(b.text))
    .slice(0, TOP_PROMPTS);
  return {
    totalPrompts: prompts.length,
    activePrompts: prompts.filter((p) => p.isActive).length,
    totalUsage: prompts.reduce((n, p) => n + p.usageCount, 0),
    totalLikes: prompts.reduce((n, p) => n + p.likeCount, 0),
    topPrompts,
    byCategory,
  };
}
