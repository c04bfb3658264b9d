import type { ActivityLog, Contact } from '@fmk/core';
import { useState } from 'react';
import { waitingForNetwork } from '../../shared/online.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { FeatureOffPage } from '../../ui/FeatureOff.tsx';
import { CalendarIcon, LockIcon, PlusIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { Card, Section } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { formatDay } from '../health/format.ts';
import { PrivacySection } from '../health/PrivacySection.tsx';
import { useLocalNow } from '../health/queries.ts';
import { ContactSheet } from './ContactSheet.tsx';
import { LogSheet } from './LogSheet.tsx';
import { ContactAvatar, formatDuration, ProtectionPill, partnerNames, Stars } from './parts.tsx';
import { useActivityLogsQuery, useActivityStatsQuery, useContactsQuery } from './queries.ts';
import { StatsGrid } from './StatsGrid.tsx';

/** /activity: the stats of spec section 9, the log and the contacts. */
export function ActivityScreen() {
  const [prefs] = useAppPreferences();
  if (!prefs.activityTrackingEnabled) {
    return (
      <FeatureOffPage
        page="Activity"
        icon={<CalendarIcon />}
        title="Activity tracking is off"
        body="Turn it on in Settings to keep a private log of encounters and contacts."
      />
    );
  }
  return <ActivityContent />;
}

function ActivityContent() {
  const today = useLocalNow(60_000).date;
  const stats = useActivityStatsQuery();
  const logs = useActivityLogsQuery();
  const contacts = useContactsQuery();
  const [open, setOpen] = useState<ActivityLog | null>(null);
  const [contactSheet, setContactSheet] = useState<Contact | 'new' | null>(null);
  const names = new Map((contacts.data ?? []).map((c) => [c.id, c.nickname ? `${c.name} (${c.nickname})` : c.name]));
  const byId = new Map((contacts.data ?? []).map((c) => [c.id, c]));
  // The open sheet follows the list, so an uploaded photo or an edit shows at once.
  const shownContact = contactSheet === 'new' || contactSheet === null ? null : (byId.get(contactSheet.id) ?? contactSheet);

  const failed = stats.isError || logs.isError || contacts.isError;
  const loading = stats.isPending || logs.isPending || contacts.isPending;

  return (
    <Page
      title="Activity"
      actions={
        <ButtonLink to="/activity/log" className="min-h-10 px-4 text-base">
          Log
        </ButtonLink>
      }
    >
      <p className="flex items-center gap-1.5 px-4 pb-1 text-sm text-muted">
        <LockIcon width={16} height={16} /> Private and encrypted. Only you can see this.
      </p>
      {waitingForNetwork(stats, logs, contacts) ? (
        <OfflineState body="Your activity is kept on our server only, encrypted, never on this phone. It shows when you're back online." />
      ) : failed ? (
        <LoadError
          title="We couldn't load your activity"
          onRetry={() => Promise.all([stats.refetch(), logs.refetch(), contacts.refetch()])}
        />
      ) : loading ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading your activity" />
        </div>
      ) : (
        <>
          <StatsGrid stats={stats.data} />
          <Section title="Log">
            {logs.data.length === 0 ? (
              <Card className="flex flex-col items-start gap-3">
                <p className="text-base font-semibold text-ink">Nothing logged yet</p>
                <p className="text-sm text-muted">
                  Keep track of who, where and how it went. Your stats and screening reminders build on it.
                </p>
                <ButtonLink to="/activity/log">Log an activity</ButtonLink>
              </Card>
            ) : (
              <ul className="flex flex-col gap-3">
                {logs.data.map((l) => (
                  <li key={l.id}>
                    <button
                      type="button"
                      onClick={() => setOpen(l)}
                      className="flex w-full flex-col gap-1.5 rounded-2xl border border-line bg-white p-4 text-left hover:bg-canvas"
                    >
                      <span className="flex w-full items-center justify-between gap-2">
                        <span className="text-base font-semibold text-ink">{formatDay(l.date, today)}</span>
                        {l.rating ? <Stars rating={l.rating} /> : null}
                      </span>
                      <span className="flex items-center gap-2 text-sm text-ink">
                        <PartnerFaces ids={l.partners} contacts={byId} />
                        {l.partners.length ? partnerNames(l, names) : 'Solo or unnamed'}
                      </span>
                      <span className="flex flex-wrap items-center gap-1.5 text-sm text-muted">
                        <ProtectionPill protection={l.protection} />
                        {l.location ? <span>{l.location}</span> : null}
                        {l.duration ? <span>· {formatDuration(l.duration)}</span> : null}
                      </span>
                      {l.activities.length ? <span className="text-sm text-muted">{l.activities.join(' · ')}</span> : null}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Section
            title="Contacts"
            action={
              <Button variant="ghost" className="min-h-10 px-3" onClick={() => setContactSheet('new')}>
                <PlusIcon width={18} height={18} /> Add
              </Button>
            }
          >
            {contacts.data.length === 0 ? (
              <p className="text-sm text-muted">People you log activities with are kept here, with how often and how it went.</p>
            ) : (
              <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-white">
                {contacts.data.map((c) => (
                  <li key={c.id}>
                    <button
                      type="button"
                      onClick={() => setContactSheet(c)}
                      className="flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-canvas"
                    >
                      <ContactAvatar contact={c} />
                      <span className="flex min-w-0 flex-1 flex-col">
                        <span className="truncate text-base font-semibold text-ink">
                          {c.name}
                          {c.nickname ? <span className="font-normal text-muted"> · {c.nickname}</span> : null}
                        </span>
                        <span className="text-sm text-muted">
                          {c.totalActivities === 0
                            ? 'No activity yet'
                            : `${c.totalActivities} ${c.totalActivities === 1 ? 'time' : 'times'} · last ${formatDay(c.lastActivity!, today)}`}
                        </span>
                      </span>
                      {c.avgRating ? <Stars rating={Math.round(c.avgRating)} /> : null}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <PrivacySection />
        </>
      )}
      <LogSheet log={open} names={names} contacts={byId} today={today} onClose={() => setOpen(null)} />
      <ContactSheet contact={shownContact} open={contactSheet !== null} onClose={() => setContactSheet(null)} />
    </Page>
  );
}

/** Up to three partners' photos (or initials), overlapping, before their names. */
function PartnerFaces({ ids, contacts }: { ids: readonly string[]; contacts: ReadonlyMap<string, Contact> }) {
  const shown = ids.flatMap((id) => contacts.get(id) ?? []).slice(0, 3);
  if (shown.length === 0) return null;
  return (
    <span className="flex shrink-0 -space-x-2">
      {shown.map((c) => (
        <span key={c.id} className="rounded-full ring-2 ring-white">
          <ContactAvatar contact={c} size={28} />
        </span>
      ))}
    </span>
  );
}
