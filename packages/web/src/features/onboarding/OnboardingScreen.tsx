import { brandLabel, Messages, POSITIONS } from '@fmk/core';
import { type ChangeEvent, useId, useReducer, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { HeightField } from '../../ui/HeightField.tsx';
import { AddPhotoTile, PhotoTile, uploadChosenFiles } from '../../ui/PhotoTiles.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useDeletePhotoMutation, useUploadPhotoMutation } from '../profiles/queries.ts';
import { PromptPicker } from '../prompts/PromptPicker.tsx';
import { useFinishOnboardingMutation } from './queries.ts';
import {
  basicsErrors,
  FIELD_LABELS,
  initialState,
  isLastStep,
  MAX_PROMPTS,
  missingFields,
  type OnboardingAction,
  type OnboardingState,
  onboardingReducer,
  type Position,
  profilePatch,
  STEPS,
  type Step,
  stepError,
  stepIndex,
} from './state.ts';

const TITLES: Record<Step, { title: string; lead: string }> = {
  basics: { title: 'The basics', lead: 'How you show up on the grid.' },
  about: { title: 'About you', lead: 'A few words so people know who they are talking to.' },
  photos: { title: 'Your photos', lead: 'Add at least one real photo of you. We remove location data from every upload.' },
  body: { title: 'Height and position', lead: 'Shown on your hookup profile.' },
  prompts: { title: 'Dating prompts', lead: `Pick at least two (up to ${MAX_PROMPTS}) and answer each one.` },
};

type Dispatch = (a: OnboardingAction) => void;

export function OnboardingScreen() {
  const { user, updateUser, signOut } = useAuth();
  const [state, rawDispatch] = useReducer(onboardingReducer, user, initialState);
  // Fields edited on this step: an error shows under a field only once it has been touched.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const dispatch: Dispatch = (a) => {
    if (a.type === 'next' || a.type === 'back') setTouched(new Set());
    else setTouched((t) => new Set(t).add(a.type === 'set' ? a.field : a.type));
    rawDispatch(a);
  };
  const [submitError, setSubmitError] = useState<string | null>(null);
  const finish = useFinishOnboardingMutation();
  const navigate = useNavigate();
  const headingId = useId();

  const error = stepError(state);
  const last = isLastStep(state.step);
  const index = stepIndex(state.step);

  const onNext = () => {
    if (error) return;
    if (!last) {
      dispatch({ type: 'next' });
      return;
    }
    const missing = missingFields(state);
    if (missing.length) {
      setSubmitError(`Still missing: ${missing.map((m) => FIELD_LABELS[m]).join(', ')}.`);
      return;
    }
    setSubmitError(null);
    finish.mutate(profilePatch(state), {
      onSuccess: (me) => {
        updateUser(me);
        navigate('/grid', { replace: true });
      },
      onError: (e) => {
        const fields = e instanceof ApiError ? Object.values(e.fields) : [];
        setSubmitError([errorMessage(e, Messages.profileIncomplete), ...fields].join(' '));
      },
    });
  };

  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white">
      <header className="flex items-center justify-between px-5 pt-5">
        <span className="text-2xl font-black text-primary">{brandLabel(user?.appPreferences.appMode)}</span>
        <Button variant="ghost" className="min-h-10 px-3 text-sm" onClick={() => void signOut()}>
          Sign out
        </Button>
      </header>
      <div className="px-5 pt-4">
        <p className="text-sm font-semibold text-muted">
          Step {index + 1} of {STEPS.length}
        </p>
        <div
          className="mt-2 h-2 w-full overflow-hidden rounded-full bg-canvas"
          role="progressbar"
          aria-label="Profile setup progress"
          aria-valuemin={1}
          aria-valuemax={STEPS.length}
          aria-valuenow={index + 1}
        >
          <div
            className="h-full rounded-full bg-primary transition-all"
            style={{ width: `${((index + 1) / STEPS.length) * 100}%` }}
          />
        </div>
      </div>
      <form
        aria-labelledby={headingId}
        className="flex flex-1 flex-col gap-5 px-5 py-6"
        onSubmit={(e) => {
          e.preventDefault();
          onNext();
        }}
        noValidate
      >
        <div>
          <h1 id={headingId} className="text-2xl font-bold text-ink">
            {TITLES[state.step].title}
          </h1>
          <p className="mt-1 text-base text-muted">{TITLES[state.step].lead}</p>
        </div>

        {state.step === 'basics' ? <BasicsStep state={state} dispatch={dispatch} touched={touched} /> : null}
        {state.step === 'about' ? (
          <TextArea
            label="Bio"
            value={state.bio}
            maxLength={1000}
            onChange={(e) => dispatch({ type: 'set', field: 'bio', value: e.target.value })}
            hint="Up to 1000 characters."
            error={touched.has('bio') ? error : null}
          />
        ) : null}
        {state.step === 'photos' ? <PhotosStep state={state} dispatch={dispatch} /> : null}
        {state.step === 'body' ? <BodyStep state={state} dispatch={dispatch} showErrors={touched.size > 0} /> : null}
        {state.step === 'prompts' ? <PromptsStep state={state} dispatch={dispatch} /> : null}

        {/* Photos and prompts: the step's rule, once the person has started on it. */}
        <FormError>{error && touched.size > 0 && (state.step === 'photos' || state.step === 'prompts') ? error : null}</FormError>
        <FormError>{submitError}</FormError>

        <div className="mt-auto flex gap-3 pt-4">
          {index > 0 ? (
            <Button variant="secondary" className="flex-1" onClick={() => dispatch({ type: 'back' })}>
              Back
            </Button>
          ) : null}
          <Button type="submit" className="flex-1" disabled={error !== null} loading={finish.isPending}>
            {last ? 'Finish' : 'Next'}
          </Button>
        </div>
      </form>
    </main>
  );
}

function BasicsStep({ state, dispatch, touched }: { state: OnboardingState; dispatch: Dispatch; touched: ReadonlySet<string> }) {
  const errors = basicsErrors(state);
  return (
    <>
      <TextField
        label="Display name"
        autoComplete="nickname"
        value={state.displayName}
        maxLength={40}
        onChange={(e) => dispatch({ type: 'set', field: 'displayName', value: e.target.value })}
        error={touched.has('displayName') ? errors.displayName : null}
      />
      <TextField
        label="Age"
        inputMode="numeric"
        value={state.age}
        onChange={(e) => dispatch({ type: 'set', field: 'age', value: e.target.value.replace(/[^\d]/g, '').slice(0, 3) })}
        hint="You must be 18 or older."
        error={touched.has('age') ? errors.age : null}
      />
    </>
  );
}

function PhotosStep({ state, dispatch }: { state: OnboardingState; dispatch: Dispatch }) {
  const upload = useUploadPhotoMutation();
  const remove = useDeletePhotoMutation();
  const [error, setError] = useState<string | null>(null);
  const onFiles = (e: ChangeEvent<HTMLInputElement>) => {
    setError(null);
    return uploadChosenFiles(
      e,
      (file) => upload.mutateAsync(file),
      (photo) => dispatch({ type: 'photoAdded', photo }),
      (err) => setError(errorMessage(err, 'That photo could not be uploaded. Please try again.')),
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <ul className="grid grid-cols-3 gap-3" aria-label="Your photos">
        {state.photos.map((p, i) => (
          <PhotoTile
            key={p.id}
            url={p.url}
            index={i}
            total={state.photos.length}
            className="aspect-square rounded-xl"
            disabled={remove.isPending}
            onRemove={() =>
              remove.mutate(p.id, {
                onSuccess: () => dispatch({ type: 'photoRemoved', id: p.id }),
                onError: (err) => setError(errorMessage(err, 'That photo could not be removed. Please try again.')),
              })
            }
          />
        ))}
        <li className="aspect-square">
          <AddPhotoTile uploading={upload.isPending} disabled={upload.isPending} onChange={(e) => void onFiles(e)} />
        </li>
      </ul>
      <FormError>{error}</FormError>
    </div>
  );
}

function BodyStep({ state, dispatch, showErrors }: { state: OnboardingState; dispatch: Dispatch; showErrors: boolean }) {
  const err = showErrors ? stepError(state, 'body') : null;
  return (
    <>
      <HeightField
        value={state}
        onUnits={(units) => dispatch({ type: 'setUnits', units })}
        onChange={(field, value) => dispatch({ type: 'set', field, value })}
        error={err}
      />
      <SelectField
        label="Position"
        value={state.position}
        onChange={(e) => dispatch({ type: 'setPosition', position: e.target.value as Position })}
      >
        {POSITIONS.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </SelectField>
    </>
  );
}

function PromptsStep({ state, dispatch }: { state: OnboardingState; dispatch: Dispatch }) {
  const chosen = new Set(state.prompts.map((p) => p.promptId));
  const full = state.prompts.length >= MAX_PROMPTS;
  return (
    <div className="flex flex-col gap-4">
      {state.prompts.map((p) => (
        <TextArea
          key={p.promptId}
          label={p.question}
          value={p.answer}
          maxLength={300}
          className="min-h-20"
          onChange={(e) => dispatch({ type: 'answer', promptId: p.promptId, answer: e.target.value })}
        />
      ))}
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-ink">
          Prompts ({state.prompts.length} of {MAX_PROMPTS} chosen)
        </legend>
        <div className="flex flex-col gap-4">
          <PromptPicker
            chosen={chosen}
            isDisabled={(on) => !on && full}
            onPick={(prompt) => dispatch({ type: 'togglePrompt', prompt })}
          />
        </div>
      </fieldset>
    </div>
  );
}
