import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMPT_CATEGORY, PROMPT_CATEGORIES, STARTER_PROMPTS } from './prompts.ts';

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
