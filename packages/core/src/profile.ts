import { z } from 'zod';

/** Profile shapes and defaults (spec section 3 "User"). */
export const POSITIONS = ['Top', 'Vers Top', 'Vers', 'Vers Bottom', 'Bottom', 'Side'] as const;
export const MODES = ['dating', 'now'] as const;
export type ProfileMode = (typeof MODES)[number];
export const APP_MODES = ['both', 'fuck', 'marry'] as const;
export type AppMode = (typeof APP_MODES)[number];
export const SHOW_ME = ['everyone', 'men', 'trans', 'nonbinary'] as const;
export const MIN_AGE = 18;
export const MAX_AGE = 99;
export const MIN_DATING_PROMPTS = 2;
/** At most this many prompts on a dating profile (the prompt selector offers up to 3). */
export const MAX_DATING_PROMPTS = 3;

export const preferencesSchema = z.object({
  ageRange: z.tuple([z.number().int().min(MIN_AGE).max(MAX_AGE), z.number().int().min(MIN_AGE).max(MAX_AGE)]),
  maxDistance: z.number().int().min(1).max(500),
  showMe: z.enum(SHOW_ME),
  units: z.enum(['imperial', 'metric']),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const statsSchema = z.object({
  likes: z.number().int(),
  matches: z.number().int(),
  superLikes: z.number().int(),
  views: z.number().int(),
  messages: z.number().int(),
  datingLikes: z.number().int(),
  nowTaps: z.number().int(),
});
export type Stats = z.infer<typeof statsSchema>;

export const promptAnswerSchema = z.object({
  promptId: z.string().min(1).max(64),
  question: z.string().min(1).max(200),
  answer: z.string().trim().min(1, 'Write an answer to the prompt.').max(300),
});
export type PromptAnswer = z.infer<typeof promptAnswerSchema>;

const shortList = z.array(z.string().trim().min(1).max(60)).max(20);

export const datingProfileSchema = z.object({
  selectedPhotos: z.array(z.string()).max(20),
  prompts: z.array(promptAnswerSchema).max(MAX_DATING_PROMPTS, `Choose at most ${MAX_DATING_PROMPTS} prompts.`),
  bio: z.string().max(1000),
  relationshipGoals: shortList,
  lookingFor: shortList,
  interests: shortList,
  values: shortList,
  dealBreakers: shortList,
  lifestyle: shortList,
});
export type DatingProfile = z.infer<typeof datingProfileSchema>;

export const nowProfileSchema = z.object({
  selectedPhotos: z.array(z.string()).max(20),
  quickStats: z.object({
    build: z.string().max(40).nullable(),
    /** Height in centimetres; the web converts for imperial display. */
    height: z.number().int().min(120).max(250).nullable(),
  }),
  position: z.enum(POSITIONS).nullable(),
  lookingFor: shortList,
  availability: z.enum(['offline', 'available', 'busy', 'hosting', 'traveling']),
  rightNow: z.string().max(140).nullable(),
  aboutMe: z.string().max(1000),
  tribes: shortList,
  kinks: shortList,
  safetyInfo: z.string().max(500),
});
export type NowProfile = z.infer<typeof nowProfileSchema>;

export const modeVisibilitySchema = z.object({
  showInDating: z.boolean(),
  showInNow: z.boolean(),
  datingVisibleToAll: z.boolean(),
  nowVisibleToAll: z.boolean(),
  hideFromMatches: z.boolean(),
});
export type ModeVisibility = z.infer<typeof modeVisibilitySchema>;

export const DEFAULT_PREFERENCES: Preferences = { ageRange: [18, 50], maxDistance: 50, showMe: 'everyone', units: 'imperial' };
export const DEFAULT_STATS: Stats = { likes: 0, matches: 0, superLikes: 0, views: 0, messages: 0, datingLikes: 0, nowTaps: 0 };
export const DEFAULT_DATING_PROFILE: DatingProfile = {
  selectedPhotos: [],
  prompts: [],
  bio: '',
  relationshipGoals: [],
  lookingFor: [],
  interests: [],
  values: [],
  dealBreakers: [],
  lifestyle: [],
};
export const DEFAULT_NOW_PROFILE: NowProfile = {
  selectedPhotos: [],
  quickStats: { build: null, height: null },
  position: 'Vers',
  lookingFor: [],
  availability: 'offline',
  rightNow: null,
  aboutMe: '',
  tribes: [],
  kinks: [],
  safetyInfo: '',
};
export const DEFAULT_MODE_VISIBILITY: ModeVisibility = {
  showInDating: true,
  showInNow: false,
  datingVisibleToAll: true,
  nowVisibleToAll: false,
  hideFromMatches: false,
};
export const DEFAULT_AGE = 18;
/** Shown when a field is missing (spec section 3 "Display defaults"). */
export const DISPLAY_DEFAULTS = { name: 'Anonymous', age: 25, bio: 'No bio yet' } as const;

/** What completeness needs: the fields named in spec section 2. */
export interface CompletenessInput {
  displayName: string | null;
  age: number | null;
  bio: string | null;
  photos: readonly unknown[];
  nowProfile: { quickStats: { height: number | null }; position: string | null };
  datingProfile: { prompts: readonly { answer: string }[] };
}

export type MissingField = 'displayName' | 'age' | 'bio' | 'photo' | 'height' | 'position' | 'prompts';

/** The fields still missing before a profile counts as complete (empty when complete). */
export function missingProfileFields(p: CompletenessInput): MissingField[] {
  const missing: MissingField[] = [];
  if (!p.displayName?.trim()) missing.push('displayName');
  if (p.age == null || p.age < MIN_AGE) missing.push('age');
  if (!p.bio?.trim()) missing.push('bio');
  if (p.photos.length < 1) missing.push('photo');
  if (p.nowProfile.quickStats.height == null) missing.push('height');
  if (!p.nowProfile.position) missing.push('position');
  if (p.datingProfile.prompts.filter((x) => x.answer.trim()).length < MIN_DATING_PROMPTS) missing.push('prompts');
  return missing;
}

export function isProfileComplete(p: CompletenessInput): boolean {
  return missingProfileFields(p).length === 0;
}

/** Height display: centimetres to feet and inches for imperial. */
export function formatHeight(cm: number, units: 'imperial' | 'metric'): string {
  if (units === 'metric') return `${cm} cm`;
  const totalInches = Math.round(cm / 2.54);
  return `${Math.floor(totalInches / 12)}'${totalInches % 12}"`;
}

export function feetInchesToCm(feet: number, inches: number): number {
  return Math.round((feet * 12 + inches) * 2.54);
}
