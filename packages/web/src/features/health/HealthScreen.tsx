import {
  doseStatus,
  type LocalTime,
  type Medication,
  type MedicationLog,
  SCREENING_OVERDUE_MONTHS,
  SCREENING_THRESHOLDS,
  type Screening,
  screeningStatus,
} from '@fmk/core';
import { useState } from 'react';
import { waitingForNetwork } from '../../shared/online.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button } from '../../ui/Button.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { FeatureOffPage } from '../../ui/FeatureOff.tsx';
import { AlertIcon, CheckIcon, CloseIcon, EditIcon, HeartPulseIcon, LockIcon, PlusIcon, ShieldIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { Card, Pill, Section } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { formatClock, formatDay, formatInstantTime, longDay } from './format.ts';
import { MedicationSheet } from './MedicationSheet.tsx';
import { PrivacySection } from './PrivacySection.tsx';
import {
  useDeleteScreeningMutation,
  useHealthSummaryQuery,
  useLocalNow,
  useMarkTakenMutation,
  useMedicationLogsQuery,
  useMedicationsQuery,
  useScreeningsQuery,
} from './queries.ts';
import { RESULT_LABEL, ScreeningSheet } from './ScreeningSheet.tsx';

/** /health: medications and today's doses, STI screenings, history and the user's data (spec sections 2–4). */
export function HealthScreen() {
  const [prefs] = useAppPreferences();
  if (!prefs.healthEnabled) {
    return (
      <FeatureOffPage
        page="Health"
        icon={<HeartPulseIcon />}
        title="Health tracking is off"
        body="Turn it on in Settings to track medications, reminders and screenings."
      />
    );
  }
  return <HealthContent />;
}

function HealthContent() {
  const now = useLocalNow(60_000);
  const meds = useMedicationsQuery();
  const logs = useMedicationLogsQuery();
  const screenings = useScreeningsQuery();
  const [editing, setEditing] = useState<Medication | 'new' | null>(null);
  const [screeningSheet, setScreeningSheet] = useState<Screening | 'new' | null>(null);

  const failed = meds.isError || logs.isError || screenings.isError;
  const loading = meds.isPending || logs.isPending || screenings.isPending;

  return (
    <Page title="Health">
      <p className="flex items-center gap-1.5 px-4 pb-1 text-sm text-muted">
        <LockIcon width={16} height={16} /> Private and encrypted. Only you can see this.
      </p>
      {waitingForNetwork(meds, logs, screenings) ? (
        <OfflineState body="Your health data is kept on our server only, encrypted, never on this phone. It shows when you're back online." />
      ) : failed ? (
        <LoadError
          title="We couldn't load your health data"
          onRetry={() => Promise.all([meds.refetch(), logs.refetch(), screenings.refetch()])}
        />
      ) : loading ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading your health data" />
        </div>
      ) : (
        <>
          <Section
            title="Medications"
            action={
              <Button variant="ghost" className="min-h-10 px-3" onClick={() => setEditing('new')}>
                <PlusIcon width={18} height={18} /> Add
              </Button>
            }
          >
            {meds.data.length === 0 ? (
              <Card className="flex flex-col items-start gap-3">
                <p className="text-base font-semibold text-ink">No medications yet</p>
                <p className="text-sm text-muted">
                  Add PrEP or anything you take regularly and we'll remind you at the right time, here and with a notification.
                </p>
                <Button onClick={() => setEditing('new')}>Add medication</Button>
              </Card>
            ) : (
              <ul className="flex flex-col gap-3">
                {meds.data.map((m) => (
                  <MedicationRow key={m.id} medication={m} logs={logs.data} now={now} onEdit={() => setEditing(m)} />
                ))}
              </ul>
            )}
          </Section>
          <ScreeningSection
            screenings={screenings.data}
            today={now.date}
            onRecord={() => setScreeningSheet('new')}
            onEdit={setScreeningSheet}
          />
          <HistorySection logs={logs.data} meds={meds.data} today={now.date} />
          <PrivacySection />
        </>
      )}
      <MedicationSheet open={editing !== null} medication={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      <ScreeningSheet
        open={screeningSheet !== null}
        screening={screeningSheet === 'new' ? null : screeningSheet}
        onClose={() => setScreeningSheet(null)}
      />
    </Page>
  );
}

function MedicationRow({
  medication: m,
  logs,
  now,
  onEdit,
}: {
  medication: Medication;
  logs: readonly MedicationLog[];
  now: LocalTime;
  onEdit: () => void;
}) {
  const markTaken = useMarkTakenMutation();
  const toast = useToast();
  const { log, due } = doseStatus(m, logs, now);
  const taken = Boolean(log?.taken);
  const schedule =
    m.reminderType === 'daily' ? `Daily at ${formatClock(m.reminderTime)}` : `On demand · within ${m.postExposureHours ?? '?'} h`;

  const toggle = () =>
    markTaken.mutate(
      { id: m.id, taken: !taken },
      {
        onSuccess: (l) => {
          if (l.taken) toast.success(`${m.name} marked taken`);
        },
        onError: () => toast.error('We could not save that. Please try again.'),
      },
    );

  return (
    <li>
      <Card tone={due ? 'alert' : 'plain'} className="flex items-center gap-3">
        <button
          type="button"
          onClick={onEdit}
          className="flex min-w-0 flex-1 flex-col items-start text-left"
          aria-label={`Edit ${m.name}`}
        >
          <span className="flex flex-wrap items-center gap-2">
            <span className="truncate text-base font-semibold text-ink">{m.name}</span>
            {!m.isActive ? (
              <Pill>Paused</Pill>
            ) : due ? (
              <Pill tone="alert">Due now</Pill>
            ) : taken ? (
              <Pill tone="good">Taken</Pill>
            ) : null}
          </span>
          <span className="text-sm text-muted">
            {schedule}
            {taken && log?.takenAt ? ` · taken at ${formatInstantTime(log.takenAt)}` : ''}
          </span>
        </button>
        <button
          type="button"
          onClick={toggle}
          disabled={markTaken.isPending}
          aria-pressed={taken}
          aria-label={taken ? `Undo ${m.name} taken` : `Mark ${m.name} taken`}
          className={`flex size-12 shrink-0 items-center justify-center rounded-full border-2 transition-colors disabled:opacity-60 ${
            taken
              ? 'border-emerald-600 bg-emerald-600 text-white'
              : due
                ? 'border-primary-strong bg-white text-primary-strong hover:bg-primary-soft'
                : 'border-line bg-white text-muted hover:border-ink hover:text-ink'
          }`}
        >
          <CheckIcon />
        </button>
      </Card>
    </li>
  );
}

const resultTone = { negative: 'good', positive: 'alert', pending: 'neutral', inconclusive: 'warn' } as const;

function ScreeningSection({
  screenings,
  today,
  onRecord,
  onEdit,
}: {
  screenings: readonly Screening[];
  today: string;
  onRecord: () => void;
  onEdit: (s: Screening) => void;
}) {
  const summary = useHealthSummaryQuery();
  const { latest, nextBy, overdue } = screeningStatus(screenings, today);
  const suggestion = summary.data?.suggestion;
  const [confirming, setConfirming] = useState<string | null>(null);
  const del = useDeleteScreeningMutation();
  const toast = useToast();
  return (
    <Section
      title="STI screening"
      action={
        <Button variant="ghost" className="min-h-10 px-3" onClick={onRecord}>
          <PlusIcon width={18} height={18} /> Record
        </Button>
      }
    >
      <Card tone={overdue ? 'alert' : 'good'} className="flex gap-3">
        <span className={overdue ? 'text-primary-strong' : 'text-emerald-700'}>{overdue ? <AlertIcon /> : <ShieldIcon />}</span>
        <div className="flex flex-col gap-0.5">
          <p className="text-base font-semibold text-ink">{overdue ? 'Screening overdue' : 'Screening up to date'}</p>
          <p className="text-sm text-muted">
            {latest
              ? overdue
                ? `Your last screening was on ${longDay(latest)}. Testing every ${SCREENING_OVERDUE_MONTHS} months is recommended.`
                : `Last screening ${longDay(latest)}. Next one by ${longDay(nextBy!)}.`
              : `No screening recorded yet. Testing every ${SCREENING_OVERDUE_MONTHS} months is recommended.`}
          </p>
        </div>
      </Card>
      {suggestion?.suggested ? (
        <Card tone="plain" className="text-sm text-ink">
          You've logged {suggestion.unprotected} unprotected and {suggestion.protected} protected encounters since your last
          screening. At {SCREENING_THRESHOLDS.unprotected} unprotected or {SCREENING_THRESHOLDS.protected} protected, it's a good
          time to get tested.
        </Card>
      ) : null}
      {screenings.length ? (
        <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-white">
          {screenings.slice(0, 5).map((s) => (
            <li key={s.id} className="flex flex-col gap-2 px-4 py-3">
              <span className="flex min-h-8 items-center justify-between gap-2">
                <span className="text-sm font-semibold text-ink">{formatDay(s.date, today)}</span>
                {confirming === s.id ? (
                  <span className="flex gap-1">
                    <button
                      type="button"
                      className="rounded-full px-3 py-1 text-sm font-semibold text-muted hover:bg-canvas"
                      onClick={() => setConfirming(null)}
                    >
                      Keep
                    </button>
                    <button
                      type="button"
                      className="rounded-full px-3 py-1 text-sm font-semibold text-primary-strong hover:bg-primary-soft"
                      onClick={() =>
                        del.mutate(s.id, {
                          onSuccess: () => toast.success('Screening deleted'),
                          onError: () => toast.error('We could not delete this screening. Please try again.'),
                        })
                      }
                    >
                      Delete
                    </button>
                  </span>
                ) : (
                  <span className="flex gap-1">
                    <button
                      type="button"
                      aria-label={`Edit the screening of ${formatDay(s.date, today)}`}
                      className="rounded-full p-1.5 text-muted hover:bg-canvas hover:text-ink"
                      onClick={() => onEdit(s)}
                    >
                      <EditIcon width={16} height={16} />
                    </button>
                    <button
                      type="button"
                      aria-label={`Delete the screening of ${formatDay(s.date, today)}`}
                      className="rounded-full p-1.5 text-muted hover:bg-canvas hover:text-ink"
                      onClick={() => setConfirming(s.id)}
                    >
                      <CloseIcon width={16} height={16} />
                    </button>
                  </span>
                )}
              </span>
              <ul className="flex flex-wrap gap-1.5" aria-label={`Results of ${formatDay(s.date, today)}`}>
                {s.tests.map((t) => {
                  const r = s.results[t] ?? 'pending';
                  return (
                    <li key={t}>
                      <Pill tone={resultTone[r]}>
                        {t}: {RESULT_LABEL[r]}
                      </Pill>
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

function HistorySection({ logs, meds, today }: { logs: readonly MedicationLog[]; meds: readonly Medication[]; today: string }) {
  const names = new Map(meds.map((m) => [m.id, m.name]));
  const recent = logs.filter((l) => l.taken).slice(0, 10);
  if (recent.length === 0) return null;
  return (
    <Section title="Recent doses">
      <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-white">
        {recent.map((l) => (
          <li key={l.id} className="flex items-center gap-3 px-4 py-3">
            <span className="flex size-8 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
              <CheckIcon width={16} height={16} />
            </span>
            <span className="flex-1 text-sm text-ink">{names.get(l.medicationId) ?? 'Deleted medication'}</span>
            <span className="text-sm text-muted">
              {formatDay(l.date, today)}
              {l.takenAt ? `, ${formatInstantTime(l.takenAt)}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
