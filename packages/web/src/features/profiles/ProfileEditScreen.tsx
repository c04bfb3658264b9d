import { POSITIONS } from '@fmk/core';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { ChipInput } from '../../ui/ChipInput.tsx';
import { HeightField } from '../../ui/HeightField.tsx';
import { Page } from '../../ui/Page.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { Card, type Errors } from './EditCard.tsx';
import { draftErrors, draftPatch, type Position, type ProfileDraft, withUnits } from './editState.ts';
import { AVAILABILITIES, BUILDS, GENDERS, SUGGESTIONS } from './options.ts';
import { PhotosCard } from './PhotosCard.tsx';
import { useProfileDraft } from './ProfileEditLayout.tsx';
import { PromptsEditor } from './PromptsEditor.tsx';
import { useUpdateMeMutation } from './queries.ts';
import { VisibilityCard } from './VisibilityCard.tsx';

/** /profile/edit — every field a person edits on their profile (spec section 3 "User"). */
export function ProfileEditScreen() {
  const { user } = useAuth();
  const { draft, setDraft, reset } = useProfileDraft();
  const save = useUpdateMeMutation();
  const toast = useToast();
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  if (!user) return null;

  const localErrors = draftErrors(draft);
  const errors: Errors = { ...(showErrors ? localErrors : {}), ...serverErrors };
  const set = (change: Partial<ProfileDraft>) => setDraft((d) => ({ ...d, ...change }));
  const setDating = (change: Partial<ProfileDraft['dating']>) => setDraft((d) => ({ ...d, dating: { ...d.dating, ...change } }));
  const setNow = (change: Partial<ProfileDraft['now']>) => setDraft((d) => ({ ...d, now: { ...d.now, ...change } }));

  const onSave = () => {
    setShowErrors(true);
    setFormError(null);
    if (Object.keys(localErrors).length) {
      setFormError('Check the highlighted fields.');
      return;
    }
    const patch = draftPatch(draft, user);
    if (Object.keys(patch).length === 0) {
      toast.success('Profile saved');
      return;
    }
    save.mutate(patch, {
      onSuccess: (me) => {
        reset(me);
        setServerErrors({});
        setShowErrors(false);
        toast.success('Profile saved');
      },
      onError: (e) => {
        setServerErrors(e instanceof ApiError ? e.fields : {});
        setFormError(errorMessage(e, 'Your profile could not be saved. Please try again.'));
      },
    });
  };

  // Server errors for fields this screen has no place for are listed with the form error.
  const known = /^(displayName|age|bio|gender|preferences|datingProfile|nowProfile|modeVisibility|interests|tribes)/;
  const unplaced = Object.entries(serverErrors).filter(([k]) => !known.test(k));

  return (
    <Page title="Edit profile" back={`/profile/${user.uid}`}>
      <form
        noValidate
        aria-label="Edit profile"
        className="flex flex-col gap-4 px-3 pb-6"
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
      >
        <PhotosCard user={user} />

        <Card title="Basics">
          <TextField
            label="Display name"
            autoComplete="nickname"
            maxLength={40}
            value={draft.displayName}
            onChange={(e) => set({ displayName: e.target.value })}
            error={errors.displayName}
          />
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label="Age"
              inputMode="numeric"
              value={draft.age}
              onChange={(e) => set({ age: e.target.value.replace(/[^\d]/g, '').slice(0, 3) })}
              error={errors.age}
            />
            <SelectField
              label="Gender"
              value={draft.gender}
              onChange={(e) => set({ gender: e.target.value })}
              error={errors.gender}
            >
              <option value="">Not set</option>
              {[
                ...GENDERS,
                ...(draft.gender && !(GENDERS as readonly string[]).includes(draft.gender) ? [draft.gender] : []),
              ].map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </SelectField>
          </div>
          <TextArea
            label="Bio"
            maxLength={1000}
            value={draft.bio}
            onChange={(e) => set({ bio: e.target.value })}
            hint={`${draft.bio.length} of 1000 characters`}
            error={errors.bio}
          />
        </Card>

        <Card title="Dating profile" lead="Shown to people in Dating mode.">
          <PromptsEditor errors={errors} />
          <ChipInput
            label="Relationship goals"
            values={draft.dating.relationshipGoals}
            onChange={(v) => setDating({ relationshipGoals: v })}
            suggestions={SUGGESTIONS.relationshipGoals}
            error={errors['datingProfile.relationshipGoals']}
          />
          <ChipInput
            label="Looking for"
            values={draft.dating.lookingFor}
            onChange={(v) => setDating({ lookingFor: v })}
            suggestions={SUGGESTIONS.datingLookingFor}
            error={errors['datingProfile.lookingFor']}
          />
          <ChipInput
            label="Interests"
            values={draft.dating.interests}
            onChange={(v) => setDating({ interests: v })}
            suggestions={SUGGESTIONS.interests}
            error={errors['datingProfile.interests'] ?? errors.interests}
          />
          <ChipInput
            label="Values"
            values={draft.dating.values}
            onChange={(v) => setDating({ values: v })}
            suggestions={SUGGESTIONS.values}
            error={errors['datingProfile.values']}
          />
          <ChipInput
            label="Deal breakers"
            values={draft.dating.dealBreakers}
            onChange={(v) => setDating({ dealBreakers: v })}
            suggestions={SUGGESTIONS.dealBreakers}
            error={errors['datingProfile.dealBreakers']}
          />
          <ChipInput
            label="Lifestyle"
            values={draft.dating.lifestyle}
            onChange={(v) => setDating({ lifestyle: v })}
            suggestions={SUGGESTIONS.lifestyle}
            error={errors['datingProfile.lifestyle']}
          />
        </Card>

        <Card title="Hookup profile" lead="Shown to people in Hookup mode.">
          <HeightField
            value={draft}
            onUnits={(units) => setDraft((d) => withUnits(d, units))}
            onChange={(part, digits) => setDraft((d) => ({ ...d, [part]: digits }))}
            error={errors['nowProfile.quickStats.height']}
          />
          <div className="grid grid-cols-2 gap-3">
            <SelectField label="Build" value={draft.now.build} onChange={(e) => setNow({ build: e.target.value })}>
              <option value="">Not set</option>
              {[
                ...BUILDS,
                ...(draft.now.build && !(BUILDS as readonly string[]).includes(draft.now.build) ? [draft.now.build] : []),
              ].map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Position"
              value={draft.now.position}
              onChange={(e) => setNow({ position: e.target.value as Position | '' })}
              error={errors['nowProfile.position']}
            >
              <option value="">Not set</option>
              {POSITIONS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </SelectField>
          </div>
          <SelectField
            label="Availability"
            value={draft.now.availability}
            onChange={(e) => setNow({ availability: e.target.value as ProfileDraft['now']['availability'] })}
          >
            {AVAILABILITIES.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Right now"
            maxLength={140}
            placeholder="What are you up for right now?"
            value={draft.now.rightNow}
            onChange={(e) => setNow({ rightNow: e.target.value })}
            error={errors['nowProfile.rightNow']}
          />
          <TextArea
            label="About me"
            maxLength={1000}
            className="min-h-24"
            value={draft.now.aboutMe}
            onChange={(e) => setNow({ aboutMe: e.target.value })}
            error={errors['nowProfile.aboutMe']}
          />
          <ChipInput
            label="Looking for (hookup)"
            values={draft.now.lookingFor}
            onChange={(v) => setNow({ lookingFor: v })}
            suggestions={SUGGESTIONS.nowLookingFor}
            error={errors['nowProfile.lookingFor']}
          />
          <ChipInput
            label="Tribes"
            values={draft.now.tribes}
            onChange={(v) => setNow({ tribes: v })}
            suggestions={SUGGESTIONS.tribes}
            error={errors['nowProfile.tribes'] ?? errors.tribes}
          />
          <ChipInput
            label="Kinks"
            values={draft.now.kinks}
            onChange={(v) => setNow({ kinks: v })}
            suggestions={SUGGESTIONS.kinks}
            error={errors['nowProfile.kinks']}
          />
          <TextArea
            label="Safety info"
            maxLength={500}
            className="min-h-20"
            placeholder="e.g. On PrEP, tested monthly"
            value={draft.now.safetyInfo}
            onChange={(e) => setNow({ safetyInfo: e.target.value })}
            error={errors['nowProfile.safetyInfo']}
          />
        </Card>

        <VisibilityCard value={draft.visibility} onChange={(visibility) => set({ visibility })} />

        <div className="sticky bottom-[calc(4.25rem+env(safe-area-inset-bottom))] z-10 flex flex-col gap-2 rounded-3xl bg-white/95 pt-2 backdrop-blur">
          {formError ? (
            <div role="alert" className="text-sm font-medium text-primary-strong">
              <p>{formError}</p>
              {unplaced.map(([k, v]) => (
                <p key={k}>{v}</p>
              ))}
            </div>
          ) : null}
          <Button type="submit" block loading={save.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Page>
  );
}
