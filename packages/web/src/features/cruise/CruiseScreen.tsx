import { cruisingAvailable } from '@fmk/core';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { waitingForNetwork } from '../../shared/online.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { CHECK_CONNECTION, LoadError } from '../../ui/ErrorState.tsx';
import { FeatureOffPage } from '../../ui/FeatureOff.tsx';
import { CompassIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { EventsPanel } from './EventsPanel.tsx';
import { NearbyPanel } from './NearbyPanel.tsx';
import { type StatusWithClock, useCruiseStatus, useSpots } from './queries.ts';
import { SessionCard } from './SessionCard.tsx';
import { SpotsPanel } from './SpotsPanel.tsx';

const TABS = [
  { id: 'nearby', label: 'Nearby' },
  { id: 'spots', label: 'Spots' },
  { id: 'events', label: 'Events' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** /cruise — a timed session, who is cruising nearby (list or map), spots and group events. */
export function CruiseScreen() {
  const [prefs] = useAppPreferences();
  if (!cruisingAvailable(prefs)) return <CruisingOff />;
  return <Cruise rightNowEnabled={prefs.rightNowEnabled} />;
}

function CruisingOff() {
  return (
    <FeatureOffPage
      page="Cruise"
      icon={<CompassIcon />}
      title="Cruising is turned off"
      body="Turn cruising on in Settings to share when you're up for it. It is not available in marry-only mode."
    />
  );
}

function Cruise({ rightNowEnabled }: { rightNowEnabled: boolean }) {
  const status = useCruiseStatus();
  const spots = useSpots();
  const [tab, setTab] = useState<Tab>('nearby');
  const approvedSpots = spots.data?.items ?? [];

  if (status.isError && status.error instanceof ApiError && status.error.code === 'cruising_disabled') return <CruisingOff />;
  if (waitingForNetwork(status))
    return (
      <Page title="Cruise">
        <OfflineState body="Cruising is live: your session and who's around show when you're back online." />
      </Page>
    );

  return (
    <Page title="Cruise">
      <div className="flex flex-col gap-5 pb-6">
        {status.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading your session" />
          </div>
        ) : status.isError ? (
          <LoadError
            title="Couldn't load your session"
            body={errorMessage(status.error, CHECK_CONNECTION)}
            onRetry={() => status.refetch()}
            variant="secondary"
          />
        ) : (
          <SessionCard status={status.data as StatusWithClock} rightNowEnabled={rightNowEnabled} />
        )}

        <div role="tablist" aria-label="Cruise" className="mx-4 grid grid-cols-3 rounded-full bg-white p-1 ring-1 ring-line">
          {TABS.map((t) => (
            <button
              key={t.id}
              id={`cruise-tab-${t.id}`}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              aria-controls={`cruise-panel-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              onClick={() => setTab(t.id)}
              onKeyDown={(e) => {
                const i = TABS.findIndex((x) => x.id === tab);
                const next =
                  e.key === 'ArrowRight'
                    ? TABS[(i + 1) % TABS.length]
                    : e.key === 'ArrowLeft'
                      ? TABS[(i + TABS.length - 1) % TABS.length]
                      : null;
                if (next) {
                  setTab(next.id);
                  document.getElementById(`cruise-tab-${next.id}`)?.focus();
                }
              }}
              className={`min-h-10 rounded-full text-sm font-bold transition-colors ${
                tab === t.id ? 'bg-primary-strong text-white' : 'text-muted hover:text-ink'
              }`}
            >
              {t.label}
            </button>
          ))}
        </div>

        <div id={`cruise-panel-${tab}`} role="tabpanel" aria-labelledby={`cruise-tab-${tab}`}>
          {tab === 'nearby' ? <NearbyPanel spots={approvedSpots} /> : null}
          {tab === 'spots' ? <SpotsPanel spots={spots} /> : null}
          {tab === 'events' ? <EventsPanel spots={approvedSpots} /> : null}
        </div>
      </div>
    </Page>
  );
}
