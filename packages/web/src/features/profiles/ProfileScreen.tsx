import {
  CLICKABLE_UPSELL,
  DISPLAY_DEFAULTS,
  formatHeight,
  type GameAction,
  modeLabel,
  type PublicProfile,
  placeholderAvatarDataUrl,
  timeLabel,
} from '@fmk/core';
import { type ReactNode, startTransition, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { waitingForNetwork } from '../../shared/online.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { ButtonLink } from '../../ui/Button.tsx';
import { ChipGroup } from '../../ui/Chips.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import {
  ChevronLeftIcon,
  EditIcon,
  FlameIcon,
  HeartIcon,
  HelpIcon,
  LockIcon,
  MapPinIcon,
  ShieldIcon,
  UserIcon,
} from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { VerifiedBadge } from '../../ui/VerifiedBadge.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { ActionBar, type StampHandle, StampLayer } from '../game/ActionBar.tsx';
import { useSelect } from '../game/useSelect.ts';
import { ProfileSafetyFooter } from '../safety/ProfileSafetyFooter.tsx';
import { AVAILABILITIES } from './options.ts';
import { PhotoGallery } from './PhotoGallery.tsx';
import { useProfileQuery, usePromptLikeMutation } from './queries.ts';

/** How long the stamp stays before the grid comes back. */
export const STAMP_MS = 650;

/** /profile/:userId — another user's profile as the server lets this viewer see it. */
export function ProfileScreen() {
  const { userId = '' } = useParams();
  const { user } = useAuth();
  // A profile opens at its top, whatever the grid's scroll was.
  useLayoutEffect(() => {
    if (userId) window.scrollTo?.(0, 0);
  }, [userId]);
  if (userId === 'me' && user) return <Navigate to={`/profile/${user.uid}`} replace />;
  return <ProfileView key={userId} userId={userId} />;
}

function TopBar({ children }: { children?: ReactNode }) {
  return (
    <div className="flex items-center justify-between px-2 py-1.5">
      <Link to="/grid" aria-label="Back" className="rounded-full p-2 text-ink hover:bg-canvas">
        <ChevronLeftIcon />
      </Link>
      {children}
    </div>
  );
}

function ProfileView({ userId }: { userId: string }) {
  const query = useProfileQuery(userId);
  // Not saved on the phone (only what the grid and chats show is): say so rather than spin.
  if (waitingForNetwork(query))
    return (
      <>
        <TopBar />
        <OfflineState body="This profile opens when you're back online." />
      </>
    );
  if (query.isPending) return <ProfileSkeleton />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.code === 'limit_reached') {
      // Outside the viewer's clickable set (spec section 6): the server says which plan opens it.
      return (
        <>
          <TopBar />
          <EmptyState
            icon={<LockIcon />}
            title="This profile is locked"
            body={query.error.message || CLICKABLE_UPSELL}
            action={<ButtonLink to="/settings/premium">See Premium</ButtonLink>}
          />
        </>
      );
    }
    if (query.error instanceof ApiError && query.error.status === 404) {
      return (
        <>
          <TopBar />
          <EmptyState
            icon={<UserIcon />}
            title="This profile isn't available"
            body="It may have been removed or hidden. Plenty of others are on the grid."
            action={<ButtonLink to="/grid">Back to the grid</ButtonLink>}
          />
        </>
      );
    }
    return (
      <>
        <TopBar />
        <LoadError title="We couldn't load this profile" onRetry={() => query.refetch()} retrying={query.isFetching} />
      </>
    );
  }
  return <ProfileContent profile={query.data} />;
}

function ProfileSkeleton() {
  return (
    <div aria-busy="true">
      <span role="status" className="sr-only">
        Loading profile
      </span>
      <TopBar />
      <div className="animate-pulse">
        <div className="aspect-[4/5] w-full bg-canvas" />
        <div className="flex flex-col gap-3 px-4 py-5">
          <div className="h-8 w-1/2 rounded-lg bg-canvas" />
          <div className="h-5 w-2/3 rounded-lg bg-canvas" />
          <div className="h-20 w-full rounded-2xl bg-canvas" />
          <div className="h-28 w-full rounded-2xl bg-canvas" />
        </div>
      </div>
    </div>
  );
}

function ModeBadge({ mode }: { mode: string }) {
  const label = modeLabel(mode);
  const icon =
    label === 'Dating' ? (
      <HeartIcon width={16} height={16} />
    ) : label === 'Hookup' ? (
      <FlameIcon width={16} height={16} />
    ) : (
      <HelpIcon width={16} height={16} />
    );
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full border px-2.5 py-1 text-sm font-semibold ${
        label === 'Unknown' ? 'border-line bg-canvas text-muted' : 'border-primary/40 bg-white text-primary-strong'
      }`}
    >
      {icon}
      {label}
    </span>
  );
}

function Presence({ isOnline, lastSeen }: { isOnline: boolean | null; lastSeen: string | null }) {
  if (isOnline) {
    return (
      <span className="inline-flex items-center gap-1.5 text-sm font-medium text-ink">
        <span className="size-2.5 rounded-full bg-emerald-500 ring-2 ring-emerald-100" aria-hidden="true" />
        Online
      </span>
    );
  }
  if (!lastSeen) return null;
  const t = new Date(lastSeen).getTime();
  if (Number.isNaN(t)) return null;
  return <span className="text-sm text-muted">Active {timeLabel(t, Date.now())}</span>;
}

function Card({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-4 rounded-3xl border border-line bg-white p-4">
      <h2 className="flex items-center gap-2 text-lg font-bold text-ink">
        <span className="text-primary-strong">{icon}</span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function ProfileContent({ profile }: { profile: PublicProfile }) {
  const { user } = useAuth();
  const units = user?.preferences.units ?? 'imperial';
  const name = profile.displayName?.trim() || DISPLAY_DEFAULTS.name;
  const age = profile.age ?? DISPLAY_DEFAULTS.age;
  const bio = profile.bio?.trim() || null;
  const [prefs] = useAppPreferences();
  const select = useSelect();
  const navigate = useNavigate();
  const [picked, setPicked] = useState<{ action: GameAction; isSuper: boolean } | null>(null);
  const pickedRef = useRef(false);
  const stamp = useRef<StampHandle | null>(null);
  // Optimistic: the stamp shows at once, the request goes on without us, and we move on.
  useEffect(() => {
    if (!picked) return;
    const here = window.location.pathname;
    // Unless the user has gone elsewhere meanwhile (a toast's "Say hi" while the chat loads).
    const t = setTimeout(() => {
      if (window.location.pathname === here) navigate('/grid');
    }, STAMP_MS);
    return () => clearTimeout(t);
  }, [picked, navigate]);

  return (
    <article aria-label={`${name}'s profile`} className="flex min-h-[calc(100dvh-3.5rem-4.5rem)] flex-col">
      <TopBar>
        {profile.isMe ? (
          <ButtonLink to="/profile/edit" variant="secondary" className="min-h-10 px-4 text-sm">
            <EditIcon width={18} height={18} /> Edit profile
          </ButtonLink>
        ) : null}
      </TopBar>
      <div className="px-3">
        <div className="overflow-hidden rounded-3xl">
          <PhotoGallery photos={profile.photos} name={name} placeholder={placeholderAvatarDataUrl(profile.uid, name)} />
        </div>
      </div>

      <div className="flex flex-col gap-5 px-4 pt-4">
        <header className="flex flex-col gap-2">
          <h1 className="flex flex-wrap items-center gap-x-2 text-3xl font-bold text-ink">
            <span>
              {name}, <span className="font-semibold">{age}</span>
            </span>
            {profile.verified ? <VerifiedBadge size={26} /> : null}
          </h1>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <ModeBadge mode={profile.currentMode} />
            <Presence isOnline={profile.isOnline} lastSeen={profile.lastSeen} />
            {profile.distance ? (
              <span className="inline-flex items-center gap-1 text-sm text-muted">
                <MapPinIcon width={16} height={16} />
                {profile.distance} away
              </span>
            ) : null}
          </div>
          <p className={`text-base leading-relaxed ${bio ? 'text-ink' : 'text-muted italic'}`}>{bio ?? DISPLAY_DEFAULTS.bio}</p>
          {profile.isDemo ? <p className="text-sm text-muted">This is a demo profile.</p> : null}
        </header>

        {profile.dating ? <DatingSection profile={profile} dating={profile.dating} /> : null}
        {profile.now ? <NowSection now={profile.now} units={units} /> : null}
      </div>
      {profile.isMe ? <div className="h-6" /> : <ProfileSafetyFooter userId={profile.uid} name={name} />}
      {profile.isMe ? null : (
        <ActionBar
          appMode={prefs.appMode}
          name={name}
          disabled={picked !== null}
          onPick={(action, isSuper) => {
            // One pick per visit; the stamp paints first, on its own (the goal: within 100 ms of
            // the tap on a slow phone), and the rest of the screen follows as a transition.
            if (pickedRef.current) return;
            pickedRef.current = true;
            stamp.current?.show({ action, isSuper });
            // After the frame with the stamp has been presented.
            requestAnimationFrame(() => setTimeout(() => startTransition(() => setPicked({ action, isSuper }))));
            void select({ targetId: profile.uid, action, super: isSuper });
          }}
        />
      )}
      <StampLayer handle={stamp} name={name} />
    </article>
  );
}

function DatingSection({ profile, dating }: { profile: PublicProfile; dating: NonNullable<PublicProfile['dating']> }) {
  const like = usePromptLikeMutation(profile.uid);
  return (
    <Card title="Dating" icon={<HeartIcon />}>
      {dating.prompts.length ? (
        <ul className="flex flex-col gap-3" aria-label="Prompts">
          {dating.prompts.map((p) => (
            <li key={p.promptId} className="rounded-2xl bg-canvas p-4">
              <p className="text-sm font-semibold text-muted">{p.question}</p>
              <p className="mt-1 text-xl font-semibold leading-snug text-ink">{p.answer}</p>
              <div className="mt-2 flex justify-end">
                {profile.isMe ? (
                  <span className="inline-flex items-center gap-1 text-sm text-muted">
                    <HeartIcon width={16} height={16} />
                    {p.likeCount} {p.likeCount === 1 ? 'like' : 'likes'}
                  </span>
                ) : (
                  <button
                    type="button"
                    aria-pressed={p.likedByMe}
                    aria-label={`Like the answer to "${p.question}"`}
                    onClick={() => like.mutate({ promptId: p.promptId, like: !p.likedByMe })}
                    className={`inline-flex min-h-10 items-center gap-1.5 rounded-full border px-3 text-sm font-semibold transition-colors ${
                      p.likedByMe
                        ? 'border-primary-strong bg-white text-primary-strong'
                        : 'border-line bg-white text-ink hover:border-primary-strong'
                    }`}
                  >
                    <HeartIcon width={18} height={18} fill={p.likedByMe ? 'currentColor' : 'none'} />
                    <span>{p.likeCount}</span>
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <ChipGroup label="Relationship goals" values={dating.relationshipGoals} />
      <ChipGroup label="Looking for" values={dating.lookingFor} />
      <ChipGroup label="Interests" values={dating.interests} />
      <ChipGroup label="Values" values={dating.values} />
      <ChipGroup label="Deal breakers" values={dating.dealBreakers} />
      <ChipGroup label="Lifestyle" values={dating.lifestyle} />
    </Card>
  );
}

function NowSection({ now, units }: { now: NonNullable<PublicProfile['now']>; units: 'imperial' | 'metric' }) {
  const stats: [string, string][] = [];
  if (now.quickStats.height != null) stats.push(['Height', formatHeight(now.quickStats.height, units)]);
  if (now.quickStats.build) stats.push(['Build', now.quickStats.build]);
  if (now.position) stats.push(['Position', now.position]);
  stats.push(['Availability', AVAILABILITIES.find((a) => a.value === now.availability)?.label ?? now.availability]);
  return (
    <Card title="Hookup" icon={<FlameIcon />}>
      {now.rightNow ? (
        <p className="rounded-2xl bg-primary-soft px-4 py-3 text-base text-ink">
          <span className="block text-sm font-bold text-ink">Right now</span>
          {now.rightNow}
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-2">
        {stats.map(([k, v]) => (
          <div key={k} className="rounded-2xl bg-canvas px-3 py-2.5">
            <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{k}</dt>
            <dd className="text-base font-semibold text-ink">{v}</dd>
          </div>
        ))}
      </dl>
      {now.aboutMe.trim() ? (
        <div className="flex flex-col gap-1">
          <h3 className="text-sm font-semibold text-muted">About me</h3>
          <p className="text-base leading-relaxed text-ink">{now.aboutMe}</p>
        </div>
      ) : null}
      <ChipGroup label="Looking for" values={now.lookingFor} />
      <ChipGroup label="Tribes" values={now.tribes} />
      <ChipGroup label="Kinks" values={now.kinks} />
      {now.safetyInfo.trim() ? (
        <div className="flex gap-3 rounded-2xl border border-line p-3">
          <ShieldIcon className="shrink-0 text-emerald-700" />
          <div>
            <h3 className="text-sm font-semibold text-ink">Safety info</h3>
            <p className="text-base text-ink">{now.safetyInfo}</p>
          </div>
        </div>
      ) : null}
    </Card>
  );
}
