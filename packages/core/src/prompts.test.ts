import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Prompt } from './api.ts';
import {
  DEFAULT_PROMPT_CATEGORY,
  PROMPT_CATEGORIES,
  promptAnalytics,
  promptCategoryOf,
  STARTER_PROMPTS,
  TOP_PROMPTS,
} from './prompts.ts';

describe('STARTER_PROMPTS', () => {
  it('has exactly ten prompts', () => {
    expect(STARTER_PROMPTS).toHaveLength(10);
  });

  it('has distinct, non-blank texts', () => {
    const texts = STARTER_PROMPTS.map((p) => p.text);
    for (const t of texts) expect(t.trim()).not.toBe('');
    expect(new Set(texts).size).toBe(texts.length);
    expect(new Set(texts.map((t) => t.trim().toLowerCase())).size).toBe(texts.length);
  });

  it('uses only known categories, spanning at least six of them', () => {
    for (const p of STARTER_PROMPTS) expect(PROMPT_CATEGORIES).toContain(p.category);
    expect(new Set(STARTER_PROMPTS.map((p) => p.category)).size).toBeGreaterThanOrEqual(6);
  });

  it('covers the categories spec section 9 names', () => {
    const used = new Set(STARTER_PROMPTS.map((p) => p.category));
    for (const c of ['Compatibility', 'Lifestyle', 'Interests', 'Personality', 'Dating', 'Personal', 'Relationships'] as const) {
      expect(used.has(c), c).toBe(true);
    }
  });
});

describe('PROMPT_CATEGORIES', () => {
  it('are distinct and include the default, General', () => {
    expect(new Set(PROMPT_CATEGORIES).size).toBe(PROMPT_CATEGORIES.length);
    expect(DEFAULT_PROMPT_CATEGORY).toBe('General');
    expect(PROMPT_CATEGORIES).toContain(DEFAULT_PROMPT_CATEGORY);
  });
});

describe('promptAnalytics', () => {
  const p = (id: string, over: Partial<Prompt> = {}): Prompt => ({
    id,
    text: `Prompt ${id}`,
    category: 'Dating',
    isActive: true,
    usageCount: 0,
    likeCount: 0,
    ...over,
  });

  it('is all zeros for no prompts', () => {
    expect(promptAnalytics([])).toEqual({
      totalPrompts: 0,
      activePrompts: 0,
      totalUsage: 0,
      totalLikes: 0,
      topPrompts: [],
      byCategory: {},
    });
  });

  it('totals prompts, active ones, usage and likes, and counts blank categories as General', () => {
    const a = promptAnalytics([
      p('1', { usageCount: 3, likeCount: 2 }),
      p('2', { isActive: false, usageCount: 1, category: 'Lifestyle' }),
      p('3', { category: '' }),
      p('4', { category: '   ', likeCount: 5 }),
    ]);
    expect(a).toMatchObject({ totalPrompts: 4, activePrompts: 3, totalUsage: 4, totalLikes: 7 });
    expect(a.byCategory).toEqual({ Dating: 1, Lifestyle: 1, General: 2 });
    expect(promptCategoryOf(null)).toBe('General');
    expect(promptCategoryOf(' Personal ')).toBe('Personal');
  });

  it("counts any category staff type as its own key, an object's built-in names too", () => {
    const names = ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf'];
    const a = promptAnalytics([...names, 'toString'].map((category, i) => p(String(i), { category })));
    expect(Object.getPrototypeOf(a.byCategory)).toBe(Object.prototype);
    expect(Object.entries(a.byCategory).sort()).toEqual(
      [...names.map((n) => [n, n === 'toString' ? 2 : 1])].sort() as [string, number][],
    );
    // Sent as JSON, '__proto__' stays a key of its own (JSON.parse makes it an own property).
    expect(Object.getOwnPropertyDescriptor(JSON.parse(JSON.stringify(a.byCategory)), '__proto__')?.value).toBe(1);
  });

  it('lists the top 10 by usage, ties by likes then text', () => {
    const prompts = Array.from({ length: 14 }, (_, i) => p(String(i).padStart(2, '0'), { usageCount: i % 7, likeCount: i }));
    const top = promptAnalytics(prompts).topPrompts;
    expect(top).toHaveLength(TOP_PROMPTS);
    expect(top.map((x) => x.usageCount)).toEqual([6, 6, 5, 5, 4, 4, 3, 3, 2, 2]);
    expect(top.slice(0, 2).map((x) => x.id)).toEqual(['13', '06']);
  });

  it('never changes what it is given', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ usage: fc.nat(50), likes: fc.nat(50) }), { maxLength: 30 }), (xs) => {
        const prompts = xs.map((x, i) => p(String(i), { usageCount: x.usage, likeCount: x.likes }));
        const copy = structuredClone(prompts);
        const a = promptAnalytics(prompts);
        expect(prompts).toEqual(copy);
        expect(a.topPrompts.length).toBe(Math.min(10, prompts.length));
        const usages = a.topPrompts.map((t) => t.usageCount);
        expect(usages).toEqual([...usages].sort((x, y) => y - x));
      }),
    );
  });
});
