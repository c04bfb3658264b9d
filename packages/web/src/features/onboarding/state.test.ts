import type { Photo } from '@fmk/core';
import { describe, expect, it } from 'vitest';
import {
  heightInCm,
  initialState,
  MAX_PROMPTS,
  MESSAGES,
  missingFields,
  type OnboardingAction,
  type OnboardingState,
  onboardingReducer,
  profilePatch,
  stepError,
} from './state.ts';

const photo: Photo = { id: 'p1', url: '/photos/p1.webp', width: 800, height: 800 };
const run = (actions: OnboardingAction[], from: OnboardingState = initialState(null)) => actions.reduce(onboardingReducer, from);
const prompt = (id: string) => ({ id, text: `Question ${id}` });

const filled = (): OnboardingState =>
  run([
    { type: 'set', field: 'displayName', value: '  Sam ' },
    { type: 'set', field: 'age', value: '30' },
    { type: 'next' },
    { type: 'set', field: 'bio', value: ' Hi there ' },
    { type: 'next' },
    { type: 'photoAdded', photo },
    { type: 'next' },
    { type: 'set', field: 'heightFeet', value: '6' },
    { type: 'set', field: 'heightInches', value: '0' },
    { type: 'next' },
    { type: 'togglePrompt', prompt: prompt('a') },
    { type: 'togglePrompt', prompt: prompt('b') },
    { type: 'answer', promptId: 'a', answer: ' Yes ' },
    { type: 'answer', promptId: 'b', answer: 'No' },
  ]);

describe('onboarding reducer', () => {
  it('starts at basics with imperial units and position Vers', () => {
    const s = initialState(null);
    expect(s.step).toBe('basics');
    expect(s.units).toBe('imperial');
    expect(s.position).toBe('Vers');
  });

  it('will not leave a step until it is valid', () => {
    let s = run([{ type: 'next' }]);
    expect(s.step).toBe('basics');
    expect(stepError(s)).toBe(MESSAGES.displayName);
    s = run([{ type: 'set', field: 'displayName', value: 'Sam' }, { type: 'set', field: 'age', value: '17' }, { type: 'next' }]);
    expect(s.step).toBe('basics');
    expect(stepError(s)).toBe('You must be 18 or older to use FMK.');
    s = run([{ type: 'set', field: 'age', value: '18' }, { type: 'next' }], s);
    expect(s.step).toBe('about');
  });

  it('rejects an age that is not a whole number', () => {
    const s = run([
      { type: 'set', field: 'displayName', value: 'Sam' },
      { type: 'set', field: 'age', value: '2x' },
    ]);
    expect(stepError(s)).toBe(MESSAGES.ageInvalid);
  });

  it('walks every step to prompts and goes back one at a time', () => {
    const s = filled();
    expect(s.step).toBe('prompts');
    expect(stepError(s)).toBeNull();
    expect(onboardingReducer(s, { type: 'back' }).step).toBe('body');
    expect(onboardingReducer(initialState(null), { type: 'back' }).step).toBe('basics');
  });

  it('needs at least one photo, and removes photos by id', () => {
    const s = run([
      { type: 'photoAdded', photo },
      { type: 'photoAdded', photo },
    ]);
    expect(s.photos).toHaveLength(1);
    expect(stepError(s, 'photos')).toBeNull();
    expect(stepError(onboardingReducer(s, { type: 'photoRemoved', id: 'p1' }), 'photos')).toBe(MESSAGES.photo);
  });

  it('converts height to centimetres in either unit and keeps it across a units switch', () => {
    const imperial = run([
      { type: 'set', field: 'heightFeet', value: '5' },
      { type: 'set', field: 'heightInches', value: '10' },
    ]);
    expect(heightInCm(imperial)).toBe(178);
    const metric = onboardingReducer(imperial, { type: 'setUnits', units: 'metric' });
    expect(metric.heightCm).toBe('178');
    expect(heightInCm(metric)).toBe(178);
    const back = onboardingReducer({ ...metric, heightCm: '183' }, { type: 'setUnits', units: 'imperial' });
    expect([back.heightFeet, back.heightInches]).toEqual(['6', '0']);
  });

  it('rejects impossible heights', () => {
    expect(
      heightInCm(
        run([
          { type: 'setUnits', units: 'metric' },
          { type: 'set', field: 'heightCm', value: '90' },
        ]),
      ),
    ).toBeNull();
    expect(
      heightInCm(
        run([
          { type: 'set', field: 'heightFeet', value: '5' },
          { type: 'set', field: 'heightInches', value: '12' },
        ]),
      ),
    ).toBeNull();
  });

  it('needs two answered prompts and caps the choice', () => {
    let s = run([
      { type: 'togglePrompt', prompt: prompt('a') },
      { type: 'answer', promptId: 'a', answer: 'x' },
    ]);
    expect(stepError(s, 'prompts')).toBe(MESSAGES.prompts);
    s = run([{ type: 'togglePrompt', prompt: prompt('b') }], s);
    expect(stepError(s, 'prompts')).toBe(MESSAGES.prompts); // chosen but unanswered
    s = run([{ type: 'answer', promptId: 'b', answer: 'y' }], s);
    expect(stepError(s, 'prompts')).toBeNull();
    for (const id of ['c', 'd', 'e']) s = onboardingReducer(s, { type: 'togglePrompt', prompt: prompt(id) });
    expect(s.prompts).toHaveLength(MAX_PROMPTS);
    expect(onboardingReducer(s, { type: 'togglePrompt', prompt: prompt('a') }).prompts.map((p) => p.promptId)).toEqual([
      'b',
      'c',
    ]);
  });

  it('builds the profile patch the server expects', () => {
    const s = filled();
    expect(missingFields(s)).toEqual([]);
    expect(profilePatch(s)).toEqual({
      displayName: 'Sam',
      age: 30,
      bio: 'Hi there',
      preferences: { units: 'imperial' },
      nowProfile: { quickStats: { height: 183, build: null }, position: 'Vers' },
      datingProfile: {
        prompts: [
          { promptId: 'a', question: 'Question a', answer: 'Yes' },
          { promptId: 'b', question: 'Question b', answer: 'No' },
        ],
        bio: 'Hi there',
      },
    });
  });

  it('lists what is missing with the core completeness rule', () => {
    expect(missingFields(initialState(null))).toEqual(['displayName', 'age', 'bio', 'photo', 'height', 'prompts']);
  });
});
