import type { Alert, AlertAction, AlertSeverity } from '@fmk/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { BlockSheet } from './BlockSheet.tsx';
import { MeetupCheckinCard } from './MeetupCheckin.tsx';
import { useAlertStateMutation, useAlertsQuery, useSettingsQuery } from './queries.ts';
import { ReportSheet } from './ReportSheet.tsx';
import { SafetyScoreCard } from './SafetyScoreCard.tsx';

const when = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

/** Severity as a word and a colour that holds AA contrast on white. */
const SEVERITY: Record<AlertSeverity, { label: string; className: string }> = {
  low: { label: 'Info', className: 'bg-canvas text-ink' },
  medium: { label: 'Caution', className: 'bg-amber-100 text-amber-900' },
  high: { label: 'Important', className: 'bg-primary-soft text-primary-strong' },
};

const chip =
  'min-h-10 rounded-full border border-line bg-white px-4 text-sm font-semibold text-ink hover:bg-canvas disabled:opacity-50';

function AlertCard({ alert, onAction }: { alert: Alert; onAction: (a: AlertAction) => void }) {
  const setState = useAlertStateMutation();
  const toast = useToast();
  const busy = setState.isPending;
  const move = (state: 'read' | 'dismissed') =>
    setState.mutate(
      { id: alert.id, state },
      { onError: (e) => toast.error("Couldn't update the alert", errorMessage(e, 'Check your connection and try again.')) },
    );
  const severity = SEVERITY[alert.severity];
  return (
    <li
      className={`flex flex-col gap-2 rounded-2xl border p-4 ${alert.isRead ? 'border-line bg-white' : 'border-primary bg-white'}`}
    >
      <div className="flex items-center gap-2">
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${severity.className}`}>{severity.label}</span>
        {alert.isRead ? null : <span className="text-xs font-semibold text-primary-strong">New</span>}
        <span className="ml-auto text-xs text-muted">{when.format(new Date(alert.createdAt))}</span>
      </div>
      <h2 className="text-base font-semibold text-ink">{alert.title}</h2>
      <p className="text-base text-ink">{alert.message}</p>
      <div className="flex flex-wrap gap-2">
        {alert.actions.map((a) => (
          <button key={a.id} type="button" className={chip} onClick={() => onAction(a)}>
            {a.label}
          </button>
        ))}
        {alert.isRead ? null : (
          <button type="button" className={chip} disabled={busy} onClick={() => move('read')}>
            Mark read
          </button>
        )}
        <button type="button" className={chip} disabled={busy} onClick={() => move('dismissed')}>
          Dismiss
        </button>
      </div>
    </li>
  );
}

/** /safety: the member's safety alerts, each raised by something that happened, with what he can do about it. */
export function SafetyCentreScreen() {
  const alerts = useAlertsQuery();
  const settings = useSettingsQuery();
  const navigate = useNavigate();
  const [acting, setActing] = useState<AlertAction | null>(null);
  const onAction = (alert: Alert, a: AlertAction) => {
    if (a.type === 'open_settings') navigate('/settings/safety');
    else if (a.type === 'review_photo')
      navigate(alert.contentId ? `/profile/edit?photo=${encodeURIComponent(alert.contentId)}` : '/profile/edit');
    else setActing(a);
  };
  const name = 'him';
  return (
    <Page title="Safety centre" back="/settings">
      <p className="px-4 pb-2 text-base text-muted">
        Your safety score, and alerts about your reports, your photos, your location and the people who message you. We only alert
        you when something actually happens.
      </p>
      {/* A running or missed check-in is the most pressing thing here: first. */}
      <MeetupCheckinCard />
      {settings.data && alerts.data ? <SafetyScoreCard settings={settings.data} alerts={alerts.data} /> : null}
      {settings.isError ? <LoadError title="We couldn't load your safety score" onRetry={() => settings.refetch()} /> : null}
      {alerts.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading your alerts" />
        </div>
      ) : alerts.isError ? (
        <LoadError title="We couldn't load your alerts" onRetry={() => alerts.refetch()} />
      ) : alerts.data.length === 0 ? (
        <EmptyState
          icon={<ShieldIcon />}
          title="No alerts"
          body="When you report someone, one of your photos is held for review, or someone messaging you looks like a scammer, you'll see it here."
        />
      ) : (
        <ul aria-label="Safety alerts" className="flex flex-col gap-3 px-4 pb-6">
          {alerts.data.map((a) => (
            <AlertCard key={a.id} alert={a} onAction={(action) => onAction(a, action)} />
          ))}
        </ul>
      )}
      {acting?.userId && acting.type === 'block' ? (
        <BlockSheet open onClose={() => setActing(null)} userId={acting.userId} name={name} />
      ) : null}
      {acting?.userId && acting.type === 'report' ? (
        <ReportSheet open onClose={() => setActing(null)} userId={acting.userId} name={name} />
      ) : null}
    </Page>
  );
}
