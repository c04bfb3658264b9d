import { DISPLAY_DEFAULTS, type LikesPage, timeLabel, WHO_LIKES_YOU_UPSELL } from '@fmk/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { waitingForNetwork } from '../../shared/online.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { ButtonLink } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { FlameIcon, HeartIcon, LockIcon, StarIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { VerifiedBadge } from '../../ui/VerifiedBadge.tsx';
import { useLikesQuery, useMarkLikesSeenMutation } from './queries.ts';

type Item = LikesPage['items'][number];

/** /likes — who picked me (fuck or marry) and is not matched yet, newest first (spec section 4). */
export function LikesScreen() {
  const query = useLikesQuery();
  const markSeen = useMarkLikesSeenMutation();
  const marked = useRef(false);
  const unseen = query.data?.unseen ?? 0;
  // Opening the screen is seeing them: once per visit, and only when something is new.
  useEffect(() => {
    if (marked.current || unseen === 0) return;
    marked.current = true;
    markSeen.mutate();
  }, [unseen, markSeen]);

  return (
    <Page title="Likes you" back="/grid">
      {waitingForNetwork(query) ? (
        <OfflineState body="Who likes you loads when you're back online." />
      ) : query.isPending ? (
        <LikesSkeleton />
      ) : query.isError ? (
        <LoadError title="We couldn't load your likes" onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : query.data.count === 0 ? (
        <EmptyState
          icon={<HeartIcon />}
          title="No likes yet"
          body="When someone picks fuck or marry on you, he shows up here. A complete profile with good photos gets picked more."
          action={<ButtonLink to="/profile/edit">Improve my profile</ButtonLink>}
        />
      ) : query.data.redacted ? (
        <Redacted page={query.data} />
      ) : (
        <LikesList page={query.data} />
      )}
    </Page>
  );
}

function Summary({ page }: { page: LikesPage }) {
  return (
    <p className="px-4 pb-3 text-base text-muted">
      <strong className="text-ink">
        {page.count} {page.count === 1 ? 'man' : 'men'}
      </strong>{' '}
      picked you: {page.fuck} fuck, {page.marry} marry.
    </p>
  );
}

function ActionTag({ item }: { item: Item }) {
  const fuck = item.action === 'fuck';
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-white/95 px-2 py-0.5 text-xs font-bold text-primary-strong shadow-sm">
      {item.super ? <StarIcon width={12} height={12} fill="currentColor" className="text-amber-600" /> : null}
      {fuck ? <FlameIcon width={12} height={12} /> : <HeartIcon width={12} height={12} fill="currentColor" />}
      {item.super ? 'Super ' : ''}
      {fuck ? 'fuck' : 'marry'}
    </span>
  );
}

function LikesList({ page }: { page: LikesPage }) {
  const now = Date.now();
  return (
    <>
      <Summary page={page} />
      <ul aria-label="Men who like you" className="grid grid-cols-2 gap-3 px-4 pb-6">
        {page.items.map((item) => {
          const u = item.user;
          if (!u) return null;
          const name = u.displayName?.trim() || DISPLAY_DEFAULTS.name;
          return (
            <li key={`${u.uid}-${item.at}`}>
              <Link
                to={`/profile/${encodeURIComponent(u.uid)}`}
                className="relative block aspect-[4/5] overflow-hidden rounded-2xl bg-canvas"
                aria-label={`${name}, ${u.age ?? DISPLAY_DEFAULTS.age}${u.verified ? ', verified' : ''}: ${item.super ? 'super ' : ''}${item.action}${item.seen ? '' : ', new'}`}
              >
                <Avatar person={u} name={name} width={200} height={250} loading="lazy" className="absolute inset-0 size-full" />
                <span className="absolute top-2 left-2">
                  <ActionTag item={item} />
                </span>
                {item.seen ? null : (
                  <span className="absolute top-2 right-2 rounded-full bg-primary-strong px-2 py-0.5 text-xs font-bold text-white">
                    New
                  </span>
                )}
                <span className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/80 to-transparent px-3 pt-8 pb-2">
                  <span className="flex items-center gap-1 text-base font-bold text-white">
                    <span className="truncate">
                      {name}, {u.age ?? DISPLAY_DEFAULTS.age}
                    </span>
                    {u.verified ? <VerifiedBadge size={16} /> : null}
                  </span>
                  <span className="block text-xs text-white/90">{timeLabel(new Date(item.at).getTime(), now)}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** Free users: the count and blurred cards. The server sent no identities, so none can leak here. */
function Redacted({ page }: { page: LikesPage }) {
  const cards = Math.min(page.count, 6);
  return (
    <>
      <Summary page={page} />
      <div className="relative min-h-80 px-4">
        <ul aria-hidden="true" className="grid grid-cols-2 gap-3">
          {Array.from({ length: cards }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: anonymous placeholders
            <li key={i} className="relative aspect-[4/5] overflow-hidden rounded-2xl">
              <div
                className="absolute inset-0 scale-110 blur-xl"
                style={{
                  background: `radial-gradient(circle at 50% 38%, #f2c9a0 0 22%, transparent 23%), linear-gradient(${140 + i * 35}deg, #ffb3bd, #8a9bd8)`,
                }}
              />
              {page.items[i] ? (
                <span className="absolute top-2 left-2">
                  <ActionTag item={page.items[i]} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        <div className="absolute inset-x-4 top-1/2 flex -translate-y-1/2 flex-col items-center gap-3 rounded-3xl bg-white/95 p-5 text-center shadow-xl">
          <span className="flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-700">
            <LockIcon width={24} height={24} />
          </span>
          <p className="text-base font-semibold text-ink">{WHO_LIKES_YOU_UPSELL}</p>
          <ButtonLink to="/settings/premium" block>
            See who likes you
          </ButtonLink>
        </div>
      </div>
    </>
  );
}

function LikesSkeleton() {
  return (
    <div aria-busy="true" className="grid animate-pulse grid-cols-2 gap-3 px-4 pt-2">
      <span role="status" className="sr-only">
        Loading likes
      </span>
      {Array.from({ length: 4 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
        <div key={i} className="aspect-[4/5] rounded-2xl bg-line/60" />
      ))}
    </div>
  );
}
