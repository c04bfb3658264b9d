import { effectiveTier, type Me, type ModeVisibility, POSITIONS, photoAllowance, TIER_LIMITS } from '@fmk/core';
import { type ChangeEvent, type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { ChipInput } from '../../ui/ChipInput.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { HeightField } from '../../ui/HeightField.tsx';
import { ArrowDownIcon, ArrowUpIcon, CloseIcon, EditIcon, PlusIcon, StarIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { AddPhotoTile, PhotoTile, uploadChosenFiles } from '../../ui/PhotoTiles.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { draftErrors, draftPatch, MAX_PROMPTS, type Position, type ProfileDraft, withUnits } from './editState.ts';
import { AVAILABILITIES, BUILDS, GENDERS, SUGGESTIONS } from './options.ts';
import { useProfileDraft } from './ProfileEditLayout.tsx';
import { useDeletePhotoMutation, useReorderPhotosMutation, useUpdateMeMutation, useUploadPhotoMutation } from './queries.ts';

type Errors = Record<string, string>;

function Card({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4 rounded-3xl border border-line bg-white p-4">
      <div>
        <h2 id={id} className="text-lg font-bold text-ink">
          {title}
        </h2>
        {lead ? <p className="text-sm text-muted">{lead}</p> : null}
      </div>
      {children}
    </section>
  );
}

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

function PromptsEditor({ errors }: { errors: Errors }) {
  const { draft, setDraft } = useProfileDraft();
  const answer = (promptId: string, text: string) =>
    setDraft((d) => ({ ...d, prompts: d.prompts.map((p) => (p.promptId === promptId ? { ...p, answer: text } : p)) }));
  const remove = (promptId: string) => setDraft((d) => ({ ...d, prompts: d.prompts.filter((p) => p.promptId !== promptId) }));
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-baseline justify-between">
        <h3 className="text-sm font-semibold text-ink">Prompts</h3>
        <span className="text-sm text-muted">
          {draft.prompts.length} of {MAX_PROMPTS}
        </span>
      </div>
      {draft.prompts.map((p, i) => (
        <div key={p.promptId} className="flex flex-col gap-2 rounded-2xl border border-line bg-white p-3">
          <TextArea
            label={p.question}
            maxLength={300}
            className="min-h-20"
            value={p.answer}
            onChange={(e) => answer(p.promptId, e.target.value)}
            error={errors[`datingProfile.prompts.${i}.answer`] ?? (i === 0 ? errors['datingProfile.prompts'] : undefined)}
          />
          <div className="flex gap-2">
            <Link
              to={`/profile/edit/prompts?replace=${encodeURIComponent(p.promptId)}`}
              className="inline-flex min-h-10 items-center gap-1 rounded-full px-3 text-sm font-semibold text-primary-strong hover:bg-primary-soft"
              aria-label={`Change prompt "${p.question}"`}
            >
              <EditIcon width={16} height={16} /> Change
            </Link>
            <button
              type="button"
              onClick={() => remove(p.promptId)}
              aria-label={`Remove prompt "${p.question}"`}
              className="inline-flex min-h-10 items-center gap-1 rounded-full px-3 text-sm font-semibold text-muted hover:bg-canvas"
            >
              <CloseIcon width={16} height={16} /> Remove
            </button>
          </div>
        </div>
      ))}
      {draft.prompts.length < MAX_PROMPTS ? (
        <Link
          to="/profile/edit/prompts"
          className="flex min-h-12 items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-line text-base font-semibold text-primary-strong hover:bg-primary-soft"
        >
          <PlusIcon width={20} height={20} /> {draft.prompts.length ? 'Add a prompt' : 'Choose prompts'}
        </Link>
      ) : null}
    </div>
  );
}

const VISIBILITY: { key: keyof ModeVisibility; label: string; hint: string }[] = [
  { key: 'showInDating', label: 'Show me in Dating', hint: 'People in Dating mode can find you' },
  { key: 'showInNow', label: 'Show me in Hookup', hint: 'People in Hookup mode can find you' },
  { key: 'datingVisibleToAll', label: 'Dating profile visible to everyone', hint: 'Off: only your matches see it' },
  { key: 'nowVisibleToAll', label: 'Hookup profile visible to everyone', hint: 'Off: only your matches see it' },
  { key: 'hideFromMatches', label: 'Hide from my matches', hint: 'Matches will not see your profile' },
];

function VisibilityCard({ value, onChange }: { value: ModeVisibility; onChange: (v: ModeVisibility) => void }) {
  return (
    <Card title="Visibility" lead="Who sees which side of you.">
      <div className="flex flex-col divide-y divide-line">
        {VISIBILITY.map((v) => (
          <Switch
            key={v.key}
            label={v.label}
            hint={v.hint}
            checked={value[v.key]}
            onChange={(on) => onChange({ ...value, [v.key]: on })}
          />
        ))}
      </div>
    </Card>
  );
}

/** Photos are saved as they change (upload, remove, reorder), not with the form. */
function PhotosCard({ user }: { user: Me }) {
  const { updateUser } = useAuth();
  const upload = useUploadPhotoMutation();
  const remove = useDeletePhotoMutation();
  const reorder = useReorderPhotosMutation();
  const [error, setError] = useState<string | null>(null);
  const [upgrade, setUpgrade] = useState<string | null>(null);
  const limit = TIER_LIMITS[effectiveTier(user)].photos;
  const photos = user.photos;
  const busy = upload.isPending || remove.isPending || reorder.isPending;

  const refresh = async () => updateUser(await call('GET /me'));

  const onFiles = async (e: ChangeEvent<HTMLInputElement>) => {
    setError(null);
    await uploadChosenFiles(
      e,
      (file) => upload.mutateAsync(file),
      () => undefined,
      (err) => {
        if (err instanceof ApiError && err.code === 'limit_reached') setUpgrade(err.message);
        else setError(errorMessage(err, 'That photo could not be uploaded. Please try again.'));
      },
    );
    await refresh().catch(() => setError('Your photos could not be refreshed. Reload to see them.'));
  };

  const move = (i: number, by: -1 | 1) => {
    const ids = photos.map((p) => p.id);
    const j = i + by;
    if (j < 0 || j >= ids.length) return;
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    reorder.mutate(ids, { onError: (err) => setError(errorMessage(err, 'Your photos could not be reordered.')) });
  };

  const allowance = photoAllowance(user, photos.length);

  return (
    <Card title="Photos" lead="Your first photo is the one people see first.">
      <p className="text-sm font-semibold text-ink" aria-live="polite">
        {photos.length} of {limit} photos
      </p>
      <ul className="grid grid-cols-3 gap-2" aria-label="Your photos">
        {photos.map((p, i) => (
          <PhotoTile
            key={p.id}
            url={p.url}
            index={i}
            total={photos.length}
            className="aspect-[4/5] rounded-2xl"
            disabled={busy}
            onRemove={() =>
              remove.mutate(p.id, {
                onSuccess: () => updateUser({ ...user, photos: photos.filter((x) => x.id !== p.id) }),
                onError: (err) => setError(errorMessage(err, 'That photo could not be removed. Please try again.')),
              })
            }
          >
            {i === 0 ? (
              <span className="absolute bottom-1.5 left-1.5 rounded-full bg-white/95 px-2 py-0.5 text-xs font-bold text-ink">
                Main
              </span>
            ) : null}
            {photos.length > 1 ? (
              <div className="absolute right-1.5 bottom-1.5 flex gap-1">
                {i > 0 ? (
                  <button
                    type="button"
                    aria-label={`Move photo ${i + 1} earlier`}
                    disabled={busy}
                    onClick={() => move(i, -1)}
                    className="rounded-full bg-white/95 p-1.5 text-ink shadow"
                  >
                    <ArrowUpIcon width={14} height={14} className="-rotate-90" />
                  </button>
                ) : null}
                {i < photos.length - 1 ? (
                  <button
                    type="button"
                    aria-label={`Move photo ${i + 1} later`}
                    disabled={busy}
                    onClick={() => move(i, 1)}
                    className="rounded-full bg-white/95 p-1.5 text-ink shadow"
                  >
                    <ArrowDownIcon width={14} height={14} className="-rotate-90" />
                  </button>
                ) : null}
              </div>
            ) : null}
          </PhotoTile>
        ))}
        <li className="aspect-[4/5]">
          {allowance.allowed ? (
            <AddPhotoTile rounded="rounded-2xl" uploading={upload.isPending} disabled={busy} onChange={(e) => void onFiles(e)} />
          ) : (
            <button
              type="button"
              onClick={() => setUpgrade(allowance.message)}
              className="flex size-full flex-col items-center justify-center gap-1 rounded-2xl border-2 border-dashed border-line px-2 text-center text-sm font-semibold text-primary-strong hover:bg-primary-soft"
            >
              <StarIcon />
              <span>Add more photos</span>
            </button>
          )}
        </li>
      </ul>
      <FormError>{error}</FormError>
      <Sheet open={upgrade !== null} onClose={() => setUpgrade(null)} title="Photo limit reached">
        <div className="flex flex-col gap-4 pb-2">
          <div className="flex items-center gap-3">
            <div className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary-strong">
              <StarIcon />
            </div>
            <p className="text-base text-ink">{upgrade}</p>
          </div>
          <ButtonLink to="/settings/premium" block>
            See plans
          </ButtonLink>
          <Button variant="secondary" block onClick={() => setUpgrade(null)}>
            Not now
          </Button>
        </div>
      </Sheet>
    </Card>
  );
}
