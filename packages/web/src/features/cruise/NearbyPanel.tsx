import { DISPLAY_DEFAULTS, type NearbyCruiser, type Spot } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { CHECK_CONNECTION, LoadError } from '../../ui/ErrorState.tsx';
import { CompassIcon, FlameIcon, MapPinIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { VerifiedBadge } from '../../ui/VerifiedBadge.tsx';
import { LOCATION_MESSAGES, useShareLocation } from '../discovery/location.ts';
import { cruiseKeys, useCruiseConfig, useNearby } from './queries.ts';

const CruiseMap = lazy(async () => ({ default: (await import('./CruiseMap.tsx')).CruiseMap }));

/** Nearby cruisers as a list (default) or on the map. */
export function NearbyPanel({ spots }: { spots: readonly Spot[] }) {
  const nearby = useNearby();
  const config = useCruiseConfig();
  const [view, setView] = useState<'list' | 'map'>('list');
  if (nearby.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading who's nearby" />
      </div>
    );
  }
  if (nearby.isError) {
    return (
      <LoadError
        title="Couldn't load who's nearby"
        body={errorMessage(nearby.error, CHECK_CONNECTION)}
        onRetry={() => nearby.refetch()}
        variant="secondary"
      />
    );
  }
  const page = nearby.data;
  if (!page.hasLocation) {
    return (
      <EmptyState
        icon={<MapPinIcon />}
        title="See who's cruising nearby"
        body="Share your location to see men in a session near you. Others only ever see a 500 m area, never where you are."
        action={<ShareLocationAction />}
      />
    );
  }

  const count = page.items.length;
  return (
    <div className="flex flex-col gap-3 px-4">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-semibold text-ink" aria-live="polite">
          {count === 0 ? 'Nobody' : `${count} cruising`} within {page.radiusKm} km
        </p>
        <fieldset className="inline-flex rounded-full bg-white p-1 ring-1 ring-line">
          <legend className="sr-only">Show nearby cruisers as</legend>
          {(['list', 'map'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={`min-h-9 rounded-full px-4 text-sm font-semibold ${view === v ? 'bg-ink text-white' : 'text-muted hover:text-ink'}`}
            >
              {v === 'list' ? 'List' : 'Map'}
            </button>
          ))}
        </fieldset>
      </div>
      {view === 'map' && page.me ? (
        <Suspense
          fallback={
            <div className="flex h-80 items-center justify-center rounded-2xl bg-white ring-1 ring-line">
              <Spinner label="Loading the map" />
            </div>
          }
        >
          <CruiseMap
            me={page.me}
            radiusKm={page.radiusKm}
            cruisers={page.items}
            spots={spots}
            tileUrl={config.data?.tileUrl ?? null}
            tileAttribution={config.data?.tileAttribution ?? null}
          />
        </Suspense>
      ) : null}
      {count === 0 ? (
        <EmptyState
          icon={<CompassIcon />}
          title="No one is cruising near you"
          body="When men within 5 km start a session they show up here, nearest first. The list refreshes by itself."
        />
      ) : (
        <ul aria-label="Cruising nearby" className="flex flex-col gap-2">
          {page.items.map((c) => (
            <CruiserRow key={c.uid} cruiser={c} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** Consent and the position, then every cruise list again (the server keeps the 500 m cell only). */
export function ShareLocationAction() {
  const share = useShareLocation();
  const qc = useQueryClient();
  const shareHere = async () => {
    await share.share();
    await qc.invalidateQueries({ queryKey: cruiseKeys.all });
  };
  return (
    <div className="flex flex-col items-center gap-2">
      <Button onClick={() => void shareHere()} loading={share.status === 'working'}>
        Share my location
      </Button>
      {share.status === 'error' && share.problem ? (
        <p role="alert" className="max-w-xs text-sm font-medium text-primary-strong">
          {LOCATION_MESSAGES[share.problem]}
        </p>
      ) : null}
    </div>
  );
}

function CruiserRow({ cruiser: c }: { cruiser: NearbyCruiser }) {
  const name = c.displayName?.trim() || DISPLAY_DEFAULTS.name;
  const age = c.age ?? DISPLAY_DEFAULTS.age;
  const minutesLeft = Math.max(0, Math.ceil((new Date(c.endsAt).getTime() - Date.now()) / 60_000));
  return (
    <li>
      <Link
        to={`/profile/${encodeURIComponent(c.uid)}`}
        aria-label={`${name}, ${age}${c.verified ? ', verified' : ''}${c.distance ? `, ${c.distance} away` : ''}${c.rightNow ? `. Right now: ${c.rightNow}` : ''}`}
        className="flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-line hover:ring-primary/40"
      >
        <span className="relative shrink-0">
          <Avatar person={c} name={name} size={56} />
          <span className="absolute -right-0.5 -bottom-0.5 flex size-6 items-center justify-center rounded-full bg-primary text-white ring-2 ring-white">
            <FlameIcon width={13} height={13} />
          </span>
        </span>
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="flex items-baseline justify-between gap-2">
            <span className="flex min-w-0 items-center gap-1">
              <span className="truncate text-base font-bold text-ink">
                {name}, {age}
              </span>
              {c.verified ? <VerifiedBadge size={16} /> : null}
            </span>
            {c.distance ? <span className="shrink-0 text-sm font-semibold text-muted">{c.distance}</span> : null}
          </span>
          {c.rightNow ? (
            <span className="truncate text-sm font-medium text-primary-strong">{c.rightNow}</span>
          ) : (
            <span className="truncate text-sm text-muted">
              {[c.position, ...c.lookingFor].filter(Boolean).join(' · ') || 'Up for it now'}
            </span>
          )}
          <span className="text-xs text-muted">
            {minutesLeft} min left{c.cell ? '' : ' · approximate area'}
          </span>
        </span>
      </Link>
    </li>
  );
}
