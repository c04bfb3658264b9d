import {
  feetInchesToCm,
  MAX_AGE,
  MAX_DATING_PROMPTS,
  type Me,
  MIN_AGE,
  type ModeVisibility,
  type NowProfile,
  type POSITIONS,
  type PromptAnswer,
  type UpdateMe,
} from '@fmk/core';

/** The profile edit form as plain data, with pure helpers that test without a screen; saving lives in hooks. */
export type Units = 'imperial' | 'metric';
export type Position = (typeof POSITIONS)[number];
export type Availability = NowProfile['availability'];
export const MAX_PROMPTS = MAX_DATING_PROMPTS;
export const MIN_HEIGHT_CM = 120;
export const MAX_HEIGHT_CM = 250;

export const DATING_LISTS = ['relationshipGoals', 'lookingFor', 'interests', 'values', 'dealBreakers', 'lifestyle'] as const;
export type DatingList = (typeof DATING_LISTS)[number];
export const NOW_LISTS = ['lookingFor', 'tribes', 'kinks'] as const;
export type NowList = (typeof NOW_LISTS)[number];

export interface ProfileDraft {
  displayName: string;
  age: string;
  bio: string;
  gender: string;
  units: Units;
  heightCm: string;
  heightFeet: string;
  heightInches: string;
  prompts: PromptAnswer[];
  dating: Record<DatingList, string[]>;
  now: Record<NowList, string[]> & {
    build: string;
    position: Position | '';
    availability: Availability;
    rightNow: string;
    aboutMe: string;
    safetyInfo: string;
  };
  visibility: ModeVisibility;
}

export function cmToFeetInches(cm: number): { feet: number; inches: number } {
  const total = Math.round(cm / 2.54);
  return { feet: Math.floor(total / 12), inches: total % 12 };
}

export function draftFrom(me: Me): ProfileDraft {
  const cm = me.nowProfile.quickStats.height;
  const fi = cm == null ? null : cmToFeetInches(cm);
  const d = me.datingProfile;
  const n = me.nowProfile;
  return {
    displayName: me.displayName ?? '',
    age: String(me.age),
    bio: me.bio ?? '',
    gender: me.gender ?? '',
    units: me.preferences.units,
    heightCm: cm == null ? '' : String(cm),
    heightFeet: fi ? String(fi.feet) : '',
    heightInches: fi ? String(fi.inches) : '',
    prompts: d.prompts.map((p) => ({ ...p })),
    dating: {
      relationshipGoals: [...d.relationshipGoals],
      lookingFor: [...d.lookingFor],
      interests: [...d.interests],
      values: [...d.values],
      dealBreakers: [...d.dealBreakers],
      lifestyle: [...d.lifestyle],
    },
    now: {
      build: n.quickStats.build ?? '',
      position: n.position ?? '',
      lookingFor: [...n.lookingFor],
      availability: n.availability,
      rightNow: n.rightNow ?? '',
      aboutMe: n.aboutMe,
      tribes: [...n.tribes],
      kinks: [...n.kinks],
      safetyInfo: n.safetyInfo,
    },
    visibility: { ...me.modeVisibility },
  };
}

/** The height in centimetres from whichever units are shown; null when empty or not a number. */
export function heightInCm(d: Pick<ProfileDraft, 'units' | 'heightCm' | 'heightFeet' | 'heightInches'>): number | null {
  if (d.units === 'metric') {
    const cm = Number.parseInt(d.heightCm, 10);
    return Number.isFinite(cm) ? cm : null;
  }
  if (!d.heightFeet.trim() && !d.heightInches.trim()) return null;
  const feet = Number.parseInt(d.heightFeet || '0', 10);
  const inches = Number.parseInt(d.heightInches || '0', 10);
  return Number.isFinite(feet) && Number.isFinite(inches) ? feetInchesToCm(feet, inches) : null;
}

/** Switching units keeps the same height, shown the other way. */
export function withUnits(d: ProfileDraft, units: Units): ProfileDraft {
  if (units === d.units) return d;
  const cm = heightInCm(d);
  const fi = cm == null ? null : cmToFeetInches(cm);
  return {
    ...d,
    units,
    heightCm: cm == null ? '' : String(cm),
    heightFeet: fi ? String(fi.feet) : '',
    heightInches: fi ? String(fi.inches) : '',
  };
}

/** Chooses or drops a prompt; at most three, each keeping its answer while chosen. */
export function togglePrompt(prompts: readonly PromptAnswer[], prompt: { id: string; text: string }): PromptAnswer[] {
  if (prompts.some((p) => p.promptId === prompt.id)) return prompts.filter((p) => p.promptId !== prompt.id);
  if (prompts.length >= MAX_PROMPTS) return [...prompts];
  return [...prompts, { promptId: prompt.id, question: prompt.text, answer: '' }];
}

/** Puts another prompt in the place of one already chosen (the answer starts empty). */
export function replacePrompt(
  prompts: readonly PromptAnswer[],
  oldId: string,
  prompt: { id: string; text: string },
): PromptAnswer[] {
  if (prompts.some((p) => p.promptId === prompt.id)) return [...prompts];
  return prompts.map((p) => (p.promptId === oldId ? { promptId: prompt.id, question: prompt.text, answer: '' } : p));
}

/** Errors the form can tell before asking the server, keyed like the server's field errors. */
export function draftErrors(d: ProfileDraft): Record<string, string> {
  const e: Record<string, string> = {};
  if (!d.displayName.trim()) e.displayName = 'Enter a display name.';
  const age = Number(d.age);
  if (!d.age.trim()) e.age = 'Enter your age.';
  else if (!Number.isInteger(age)) e.age = 'Age must be a whole number.';
  else if (age < MIN_AGE) e.age = 'You must be 18 or older to use FMK.';
  else if (age > MAX_AGE) e.age = 'Enter a real age.';
  const cm = heightInCm(d);
  if (cm != null && (cm < MIN_HEIGHT_CM || cm > MAX_HEIGHT_CM)) {
    e['nowProfile.quickStats.height'] = 'Enter a height between 120 and 250 cm (3\'11" and 8\'2").';
  }
  d.prompts.forEach((p, i) => {
    if (!p.answer.trim()) e[`datingProfile.prompts.${i}.answer`] = 'Write an answer to the prompt.';
  });
  return e;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const orNull = (s: string) => (s.trim() ? s.trim() : null);

/**
 * PATCH /me body: only what changed. Fields the user record keeps twice (bio, interests, tribes)
 * are sent to both places so they never disagree.
 */
export function draftPatch(d: ProfileDraft, me: Me): UpdateMe {
  const base = draftFrom(me);
  const patch: UpdateMe = {};
  if (d.displayName.trim() !== (me.displayName ?? '')) patch.displayName = d.displayName.trim();
  if (d.age !== base.age) patch.age = Number(d.age);
  const bio = d.bio.trim();
  if (bio !== (me.bio ?? '').trim()) patch.bio = bio;
  if (d.gender !== base.gender) patch.gender = orNull(d.gender);
  if (d.units !== me.preferences.units) patch.preferences = { units: d.units };

  const dating: NonNullable<UpdateMe['datingProfile']> = {};
  if (patch.bio !== undefined) dating.bio = bio;
  const prompts = d.prompts.map((p) => ({ ...p, answer: p.answer.trim() }));
  if (!same(prompts, base.prompts)) dating.prompts = prompts;
  for (const k of DATING_LISTS) if (!same(d.dating[k], base.dating[k])) dating[k] = d.dating[k];
  if (dating.interests) patch.interests = dating.interests;
  if (Object.keys(dating).length) patch.datingProfile = dating;

  const now: NonNullable<UpdateMe['nowProfile']> = {};
  const height = heightInCm(d);
  const build = orNull(d.now.build);
  if (height !== me.nowProfile.quickStats.height || build !== me.nowProfile.quickStats.build) {
    now.quickStats = { height, build };
  }
  if (d.now.position !== base.now.position) now.position = d.now.position || null;
  if (d.now.availability !== base.now.availability) now.availability = d.now.availability;
  if (orNull(d.now.rightNow) !== me.nowProfile.rightNow) now.rightNow = orNull(d.now.rightNow);
  if (d.now.aboutMe.trim() !== base.now.aboutMe.trim()) now.aboutMe = d.now.aboutMe.trim();
  if (d.now.safetyInfo.trim() !== base.now.safetyInfo.trim()) now.safetyInfo = d.now.safetyInfo.trim();
  for (const k of NOW_LISTS) if (!same(d.now[k], base.now[k])) now[k] = d.now[k];
  if (now.tribes) patch.tribes = now.tribes;
  if (Object.keys(now).length) patch.nowProfile = now;

  const vis: Partial<ModeVisibility> = {};
  for (const k of Object.keys(d.visibility) as (keyof ModeVisibility)[]) {
    if (d.visibility[k] !== me.modeVisibility[k]) vis[k] = d.visibility[k];
  }
  if (Object.keys(vis).length) patch.modeVisibility = vis;
  return patch;
}
