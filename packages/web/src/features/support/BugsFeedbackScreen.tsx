import { FEEDBACK_CATEGORY_LABELS, FEEDBACK_STATUS_LABELS, type Feedback } from '@fmk/core';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { BugIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Card, Pill, Section } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useReportsQuery, useScreenshot } from './queries.ts';
import { ReportForm } from './ReportForm.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const STATUS_TONE = { new: 'neutral', in_review: 'warn', resolved: 'good', closed: 'neutral' } as const;

function Screenshot({ id }: { id: string }) {
  const shot = useScreenshot(id);
  if (shot.failed) return <p className="text-sm text-muted">Screenshot attached (could not be shown)</p>;
  if (!shot.src)
    return <div className="h-24 w-14 animate-pulse rounded-lg bg-canvas" aria-label="Loading screenshot" role="img" />;
  return (
    <img
      src={shot.src}
      alt="Screenshot you attached"
      className="h-24 w-auto self-start rounded-lg border border-line object-cover"
    />
  );
}

function ReportItem({ report }: { report: Feedback }) {
  return (
    <li>
      <Card className="flex flex-col gap-2">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="text-base font-semibold text-ink">
              {report.kind === 'bug' ? 'Bug' : 'Feedback'} · {FEEDBACK_CATEGORY_LABELS[report.category]}
            </p>
            <p className="text-sm text-muted">Sent {dateFormat.format(new Date(report.createdAt))}</p>
          </div>
          <Pill tone={STATUS_TONE[report.status]}>{FEEDBACK_STATUS_LABELS[report.status]}</Pill>
        </div>
        <p className="line-clamp-4 whitespace-pre-line text-base text-ink">{report.text}</p>
        {report.screenshot ? <Screenshot id={report.screenshot.id} /> : null}
      </Card>
    </li>
  );
}

/**
 * /settings/bugs-feedback: send a bug report or feedback (with a screenshot if it helps), and see
 * the ones sent before with where staff are with each.
 */
export function BugsFeedbackScreen() {
  const reports = useReportsQuery();
  return (
    <Page title="Bugs and feedback" back="/settings">
      <p className="px-4 text-base text-muted">Something broken, or an idea? Tell the team: a person reads every one.</p>
      <Section title="Send a report">
        <ReportForm />
      </Section>
      <Section title="Your reports" className="pb-10">
        {reports.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner />
          </div>
        ) : reports.isError ? (
          <LoadError title="We couldn't load your reports" onRetry={() => reports.refetch()} />
        ) : reports.data.length === 0 ? (
          <EmptyState
            icon={<BugIcon />}
            title="No reports sent yet"
            body="Reports you send are listed here, with where we are with each."
          />
        ) : (
          <ul aria-label="Your reports" className="flex flex-col gap-3">
            {reports.data.map((r) => (
              <ReportItem key={r.id} report={r} />
            ))}
          </ul>
        )}
      </Section>
    </Page>
  );
}
