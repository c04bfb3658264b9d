import { formatHeight } from '@fmk/core';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { EditIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';

/** Shows the profile as saved at onboarding; editing it in place arrives with the profiles issue. */
export function ProfileEditScreen() {
  const { user } = useAuth();
  if (!user) return null;
  const height = user.nowProfile.quickStats.height;
  return (
    <Page title="Your profile" back="/settings">
      <div className="flex flex-col gap-4 px-4 pb-6">
        {user.photos.length ? (
          <ul className="grid grid-cols-3 gap-2" aria-label="Your photos">
            {user.photos.map((p, i) => (
              <li key={p.id} className="aspect-square overflow-hidden rounded-xl bg-canvas">
                <img src={p.url} alt={`You, ${i + 1} of ${user.photos.length}`} className="size-full object-cover" />
              </li>
            ))}
          </ul>
        ) : null}
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl border border-line bg-white p-4 text-base">
          <dt className="font-semibold">Name</dt>
          <dd>{user.displayName}</dd>
          <dt className="font-semibold">Age</dt>
          <dd>{user.age}</dd>
          <dt className="font-semibold">Height</dt>
          <dd>{height == null ? '—' : formatHeight(height, user.preferences.units)}</dd>
          <dt className="font-semibold">Position</dt>
          <dd>{user.nowProfile.position ?? '—'}</dd>
        </dl>
        <p className="text-base text-ink">{user.bio}</p>
        {user.datingProfile.prompts.map((p) => (
          <div key={p.promptId} className="rounded-2xl border border-line bg-white p-4">
            <p className="text-sm font-semibold text-muted">{p.question}</p>
            <p className="text-base text-ink">{p.answer}</p>
          </div>
        ))}
        <EmptyState
          icon={<EditIcon />}
          title="Editing is not open yet"
          body="Your profile is saved as you set it up. Changing it here is the next thing we are building."
        />
      </div>
    </Page>
  );
}
