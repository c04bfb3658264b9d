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
