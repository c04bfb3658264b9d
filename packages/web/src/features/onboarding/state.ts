import {
  feetInchesToCm,
  MAX_AGE,
  MAX_DATING_PROMPTS,
  type Me,
  MIN_AGE,
  MIN_DATING_PROMPTS,
  type MissingField,
  missingProfileFields,
  type Photo,
  POSITIONS,
  type Prompt,
  type PromptAnswer,
  type UpdateMe,
} from '@fmk/core';

/** Onboarding as a pure reducer, tested without a screen; uploads and saving live in the screen's hooks. */
export const STEPS = ['basics', 'about', 'photos', 'body', 'prompts'] as const;
export type Step = (typeof STEPS)[number];
export type Position = (typeof POSITIONS)[number];
export type Units = 'imperial' | 'metric';

export const MAX_PROMPTS = MAX_DATING_PROMPTS;
export const MIN_HEIGHT_CM = 120;
export const MAX_HEIGHT_CM = 250;
export const MESSAGES = {
  displayName: 'Enter a display name.',
  ageMissing: 'Enter your age.',
  ageUnder: 'You must be 18 or older to use FMK.',
  ageInvalid: 'Enter a real age.',
  bio: 'Write a few words about yourself.',
  photo: 'Add at least one photo.',
  height: 'Enter a height between 120 and 250 cm (3\'11" and 8\'2").',
  prompts: 'Choose at least two prompts and answer each one.',
} as const;

export interface OnboardingState {
  step: Step;
  displayName: string;
  age: string;
  bio: string;
  photos: Photo[];
  units: Units;
  heightCm: string;
  heightFeet: string;
  heightInches: string;
  position: Position;
  /** Chosen prompts in the order chosen, each with its answer. */
  prompts: PromptAnswer[];
}

export type OnboardingAction =
  | { type: 'set'; field: 'displayName' | 'age' | 'bio' | 'heightCm' | 'heightFeet' | 'heightInches'; value: string }
  | { type: 'setPosition'; position: Position }
  | { type: 'setUnits'; units: Units }
  | { type: 'photoAdded'; photo: Photo }
  | { type: 'photoRemoved'; id: string }
  | { type: 'togglePrompt'; prompt: Pick<Prompt, 'id' | 'text'> }
  | { type: 'answer'; promptId: string; answer: string }
  | { type: 'next' }
  | { type: 'back' };

function cmToFeetInches(cm: number): { feet: number; inches: number } {
  const total = Math.round(cm / 2.54);
  return { feet: Math.floor(total / 12), inches: total % 12 };
}

/** Starts from what the server already has, so a reload mid-way loses nothing saved. */
export function initialState(
  me: Pick<Me, 'displayName' | 'bio' | 'photos' | 'preferences' | 'nowProfile' | 'datingProfile'> | null,
): OnboardingState {
  const units: Units = me?.preferences.units ?? 'imperial';
  const cm = me?.nowProfile.quickStats.height ?? null;
  const fi = cm == null ? null : cmToFeetInches(cm);
  const position = me?.nowProfile.position;
  return {
    step: 'basics',
    displayName: me?.displayName ?? '',
    age: '',
    bio: me?.bio ?? '',
    photos: me?.photos ?? [],
    units,
    heightCm: cm == null ? '' : String(cm),
    heightFeet: fi ? String(fi.feet) : '',
    heightInches: fi ? String(fi.inches) : '',
    position: position && (POSITIONS as readonly string[]).includes(position) ? position : 'Vers',
    prompts: me?.datingProfile.prompts.slice(0, MAX_PROMPTS) ?? [],
  };
}

const wholeNumber = (s: string): number | null => (/^\s*\d+\s*$/.test(s) ? Number(s) : null);

export function parsedAge(s: OnboardingState): number | null {
  return wholeNumber(s.age);
}

/** The height in centimetres from whichever units are shown, or null when unusable. */
export function heightInCm(s: OnboardingState): number | null {
  let cm: number | null;
  if (s.units === 'metric') cm = wholeNumber(s.heightCm);
  else {
    const feet = wholeNumber(s.heightFeet);
    const inches = s.heightInches.trim() === '' ? 0 : wholeNumber(s.heightInches);
    cm = feet == null || inches == null || inches > 11 ? null : feetInchesToCm(feet, inches);
  }
  return cm != null && cm >= MIN_HEIGHT_CM && cm <= MAX_HEIGHT_CM ? cm : null;
}

/** What stops the step from being finished, or null. Shown inline; Next stays disabled meanwhile. */
export function stepError(s: OnboardingState, step: Step = s.step): string | null {
  switch (step) {
    case 'basics': {
      const e = basicsErrors(s);
      return e.displayName ?? e.age;
    }
    case 'about':
      return s.bio.trim() ? null : MESSAGES.bio;
    case 'photos':
      return s.photos.length > 0 ? null : MESSAGES.photo;
    case 'body':
      return heightInCm(s) == null ? MESSAGES.height : null;
    case 'prompts':
      return answeredPrompts(s).length >= MIN_DATING_PROMPTS && s.prompts.every((p) => p.answer.trim()) ? null : MESSAGES.prompts;
  }
}

/** The basics step's errors per field, so each shows under its own input. */
export function basicsErrors(s: OnboardingState): { displayName: string | null; age: string | null } {
  const age = parsedAge(s);
  let ageError: string | null = null;
  if (s.age.trim() === '') ageError = MESSAGES.ageMissing;
  else if (age == null || age > MAX_AGE) ageError = MESSAGES.ageInvalid;
  else if (age < MIN_AGE) ageError = MESSAGES.ageUnder;
  return { displayName: s.displayName.trim() ? null : MESSAGES.displayName, age: ageError };
}

export function answeredPrompts(s: OnboardingState): PromptAnswer[] {
  return s.prompts.filter((p) => p.answer.trim()).map((p) => ({ ...p, answer: p.answer.trim() }));
}

export function stepIndex(step: Step): number {
  return STEPS.indexOf(step);
}

export function isLastStep(step: Step): boolean {
  return stepIndex(step) === STEPS.length - 1;
}

export function onboardingReducer(s: OnboardingState, a: OnboardingAction): OnboardingState {
  switch (a.type) {
    case 'set':
      return { ...s, [a.field]: a.value };
    case 'setPosition':
      return { ...s, position: a.position };
    case 'setUnits': {
      if (a.units === s.units) return s;
      // Carry a usable height across, so switching units never loses what was typed.
      const cm = heightInCm(s);
      if (cm == null) return { ...s, units: a.units };
      const fi = cmToFeetInches(cm);
      return { ...s, units: a.units, heightCm: String(cm), heightFeet: String(fi.feet), heightInches: String(fi.inches) };
    }
    case 'photoAdded':
      return s.photos.some((p) => p.id === a.photo.id) ? s : { ...s, photos: [...s.photos, a.photo] };
    case 'photoRemoved':
      return { ...s, photos: s.photos.filter((p) => p.id !== a.id) };
    case 'togglePrompt': {
      if (s.prompts.some((p) => p.promptId === a.prompt.id))
        return { ...s, prompts: s.prompts.filter((p) => p.promptId !== a.prompt.id) };
      if (s.prompts.length >= MAX_PROMPTS) return s;
      return { ...s, prompts: [...s.prompts, { promptId: a.prompt.id, question: a.prompt.text, answer: '' }] };
    }
    case 'answer':
      return { ...s, prompts: s.prompts.map((p) => (p.promptId === a.promptId ? { ...p, answer: a.answer } : p)) };
    case 'next': {
      if (stepError(s) !== null || isLastStep(s.step)) return s;
      return { ...s, step: STEPS[stepIndex(s.step) + 1] ?? s.step };
    }
    case 'back':
      return { ...s, step: STEPS[Math.max(0, stepIndex(s.step) - 1)] ?? s.step };
  }
}

/** The PATCH /api/v1/me body that finishes onboarding. */
export function profilePatch(s: OnboardingState): UpdateMe {
  const bio = s.bio.trim();
  return {
    displayName: s.displayName.trim(),
    age: parsedAge(s) ?? 0,
    bio,
    preferences: { units: s.units },
    nowProfile: { quickStats: { height: heightInCm(s), build: null }, position: s.position },
    datingProfile: { prompts: answeredPrompts(s), bio },
  };
}

/** The same completeness rule the server applies (core), run before we ask it. */
export function missingFields(s: OnboardingState): MissingField[] {
  return missingProfileFields({
    displayName: s.displayName,
    age: parsedAge(s),
    bio: s.bio,
    photos: s.photos,
    nowProfile: { quickStats: { height: heightInCm(s) }, position: s.position },
    datingProfile: { prompts: answeredPrompts(s) },
  });
}

export const FIELD_LABELS: Record<MissingField, string> = {
  displayName: 'display name',
  age: 'age',
  bio: 'bio',
  photo: 'a photo',
  height: 'height',
  position: 'position',
  prompts: 'two answered prompts',
};
