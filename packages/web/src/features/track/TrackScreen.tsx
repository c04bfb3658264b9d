import { doseStatus, type LocalTime, type Medication, type MedicationLog, screeningStatus } from '@fmk/core';
import { Link } from 'react-router';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { AlertIcon, CalendarIcon, CheckIcon, ChevronRightIcon, HeartPulseIcon, ShieldIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Card, Pill, Section } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { formatDuration, ProtectionPill, partnerNames, Stars } from '../activity/parts.tsx';
import { useActivityLogsQuery, useActivityStatsQuery, useContactsQuery } from '../activity/queries.ts';
import { formatClock, formatDay, longDay } from '../health/format.ts';
import {
  useLocalNow,
  useMarkTakenMutation,
  useMedicationLogsQuery,
  useMedicationsQuery,
  useScreeningsQuery,
} from '../health/queries.ts';

/** /track: the hub of health and activity: today's doses, the screening, recent activity. */
export function TrackScreen() {
  const [prefs] = useAppPreferences();
  const now = useLocalNow(60_000);
  const health = prefs.healthEnabled;
  const activity = prefs.activityTrackingEnabled;
  return (
    <Page title="Track">
      {!health && !activity ? (
        <EmptyState
          icon={<HeartPulseIcon />}
          title="Tracking is off"
          body="Turn on health or activity tracking in Settings to see your reminders and activity here."
          action={<ButtonLink to="/settings">Open Settings</ButtonLink>}
        />
      ) : (
        <>
          <p className="px-4 pb-1 text-sm text-muted">Your health and activity at a glance. Private: only you can see it.</p>
          {health ? <TodayHealth now={now} /> : null}
          {activity ? <RecentActivity today={now.date} /> : null}
        </>
      )}
    </Page>
  );
}

function Loading() {
  return (
    <div className="flex justify-center py-8">
      <Spinner />
    </div>
  );
}

function TodayHealth({ now }: { now: LocalTime }) {
  const meds = useMedicationsQuery();
  const logs = useMedicationLogsQuery();
  const screenings = useScreeningsQuery();
  if (meds.isError || logs.isError || screenings.isError) {
    return (
      <Section title="Today">
        <Card className="text-sm text-muted">We couldn't load your health data. Pull to refresh or try again later.</Card>
      </Section>
    );
  }
  if (meds.isPending || logs.isPending || screenings.isPending) return <Loading />;
  const daily = meds.data
    .filter((m) => m.isActive && m.reminderType === 'daily')
    .sort((a, b) => a.reminderTime.localeCompare(b.reminderTime));
  const { latest, nextBy, overdue } = screeningStatus(screenings.data, now.date);
  return (
    <>
      <Section
        title="Today's reminders"
        action={
          <Link to="/health" className="inline-flex items-center text-sm font-semibold text-primary-strong">
            Health <ChevronRightIcon width={16} height={16} />
          </Link>
        }
      >
        {daily.length === 0 ? (
          <Card className="flex flex-col items-start gap-3">
            <p className="text-sm text-muted">No daily medications. Add one to get reminders at the right time.</p>
            <ButtonLink to="/health" variant="secondary">
              Add medication
            </ButtonLink>
          </Card>
        ) : (
          <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-white">
            {daily.map((m) => (
              <DoseRow key={m.id} med={m} logs={logs.data} now={now} />
            ))}
          </ul>
        )}
      </Section>
      <Section title="Screening">
        <Link to="/health" className="block rounded-2xl focus-visible:outline-3">
          <Card tone={overdue ? 'alert' : 'good'} className="flex items-center gap-3">
            <span className={overdue ? 'text-primary-strong' : 'text-emerald-700'}>
              {overdue ? <AlertIcon /> : <ShieldIcon />}
            </span>
            <span className="flex flex-1 flex-col">
              <span className="text-base font-semibold text-ink">{overdue ? 'Screening overdue' : 'Screening up to date'}</span>
              <span className="text-sm text-muted">
                {latest
                  ? overdue
                    ? `Last one ${longDay(latest)}`
                    : `Next one by ${longDay(nextBy!)}`
                  : 'No screening recorded yet'}
              </span>
            </span>
            <ChevronRightIcon className="text-muted" />
          </Card>
        </Link>
      </Section>
    </>
  );
}

function DoseRow({ med, logs, now }: { med: Medication; logs: readonly MedicationLog[]; now: LocalTime }) {
  const markTaken = useMarkTakenMutation();
  const toast = useToast();
  const { log, due } = doseStatus(med, logs, now);
  const taken = Boolean(log?.taken);
  return (
    <li className="flex items-center gap-3 px-4 py-3">
      <span className="w-16 text-sm font-semibold text-muted">{formatClock(med.reminderTime)}</span>
      <span className="flex min-w-0 flex-1 items-center gap-2">
        <span className="truncate text-base text-ink">{med.name}</span>
        {due ? <Pill tone="alert">Due now</Pill> : null}
      </span>
      {taken ? (
        <span className="inline-flex items-center gap-1 text-sm font-semibold text-emerald-700">
          <CheckIcon width={16} height={16} /> Taken
        </span>
      ) : due ? (
        <Button
          className="min-h-10 px-4 text-base"
          loading={markTaken.isPending}
          onClick={() =>
            markTaken.mutate(
              { id: med.id, taken: true },
              {
                onSuccess: () => toast.success(`${med.name} marked taken`),
                onError: () => toast.error('We could not save that. Please try again.'),
              },
            )
          }
        >
          Mark taken
        </Button>
      ) : (
        <span className="text-sm text-muted">Upcoming</span>
      )}
    </li>
  );
}

function RecentActivity({ today }: { today: string }) {
  const stats = useActivityStatsQuery();
  const logs = useActivityLogsQuery();
  const contacts = useContactsQuery();
  const names = new Map((contacts.data ?? []).map((c) => [c.id, c.name]));
  return (
    <Section
      title="Recent activity"
      action={
        <Link to="/activity" className="inline-flex items-center text-sm font-semibold text-primary-strong">
          Activity <ChevronRightIcon width={16} height={16} />
        </Link>
      }
    >
      {stats.isError || logs.isError ? (
        <Card className="text-sm text-muted">We couldn't load your activity. Try again later.</Card>
      ) : stats.isPending || logs.isPending ? (
        <Loading />
      ) : (
        <>
          <dl className="grid grid-cols-3 gap-2">
            {[
              ['This week', stats.data.thisWeek],
              ['This month', stats.data.thisMonth],
              ['Partners', stats.data.uniquePartners],
            ].map(([label, value]) => (
              <div key={label} className="flex flex-col-reverse rounded-2xl bg-primary-soft p-3">
                <dt className="text-xs font-semibold text-muted">{label}</dt>
                <dd className="text-2xl font-bold text-ink">{value}</dd>
              </div>
            ))}
          </dl>
          {logs.data.length ? (
            <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-white">
              {logs.data.slice(0, 3).map((l) => (
                <li key={l.id} className="flex flex-col gap-1 px-4 py-3">
                  <span className="flex items-center justify-between gap-2">
                    <span className="text-sm font-semibold text-ink">{formatDay(l.date, today)}</span>
                    {l.rating ? <Stars rating={l.rating} /> : null}
                  </span>
                  <span className="flex flex-wrap items-center gap-1.5 text-sm text-muted">
                    <ProtectionPill protection={l.protection} />
                    {l.partners.length ? <span>{partnerNames(l, names)}</span> : null}
                    {l.duration ? <span>· {formatDuration(l.duration)}</span> : null}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <Card className="flex items-center gap-3 text-sm text-muted">
              <CalendarIcon className="shrink-0 text-primary-strong" />
              Nothing logged yet. Your latest encounters will show up here.
            </Card>
          )}
          <ButtonLink to="/activity/log" block>
            Log activity
          </ButtonLink>
        </>
      )}
    </Section>
  );
}
