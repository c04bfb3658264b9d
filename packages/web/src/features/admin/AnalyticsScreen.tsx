import { ANALYTICS_EXPORTS, type Analytics, type Cohort, type FunnelRow, type MixRow } from '@fmk/core';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { type AdminColumn, AdminTable } from './AdminTable.tsx';
import { QueryState, ScreenTitle } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffQuery } from './queries.ts';
import { staffCall, staffDownload } from './session.ts';

const pct = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: 1 })} %`;

function Section({ title, note, children }: { title: string; note?: ReactNode; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2" aria-label={title}>
      <h2 className="text-lg font-bold text-ink">{title}</h2>
      {note ? <p className="text-sm text-muted">{note}</p> : null}
      {children}
    </section>
  );
}

/** A share drawn as a bar behind its number (the number is what is read). */
function Share({ value, label }: { value: number; label: string }) {
  return (
    <span className="flex min-w-24 items-center gap-2">
      <span aria-hidden="true" className="h-2 flex-1 rounded-full bg-canvas">
        <span className="block h-2 rounded-full bg-primary" style={{ width: `${Math.min(100, value)}%` }} />
      </span>
      <span className="tabular-nums">{label}</span>
    </span>
  );
}

function cohortColumns(weeks: number): AdminColumn<Cohort>[] {
  return [
    { head: 'Signed up (week of)', className: 'font-mono whitespace-nowrap', cell: (c) => c.cohort, sortValue: (c) => c.cohort },
    { head: 'Members', className: 'tabular-nums', cell: (c) => c.size, sortValue: (c) => c.size },
    ...Array.from(
      { length: weeks },
      (_, w): AdminColumn<Cohort> => ({
        head: `Week ${w}`,
        className: 'tabular-nums whitespace-nowrap',
        cell: (c) => {
          const cell = c.weeks[w];
          if (!cell) return <span className="text-muted">—</span>;
          // A warmer cell for a larger share, with the number always written.
          const tone = cell.percent >= 50 ? 'bg-primary-strong text-white' : cell.percent > 0 ? 'bg-primary-soft text-ink' : '';
          return (
            <span className={`inline-block rounded px-1.5 ${tone}`} title={`${cell.active} of ${c.size}`}>
              {pct(cell.percent)}
            </span>
          );
        },
      }),
    ),
  ];
}

const funnelColumns: AdminColumn<FunnelRow>[] = [
  { head: 'Step', cell: (f) => f.label },
  { head: 'Members', className: 'tabular-nums', cell: (f) => f.count },
  { head: 'Of the step before', cell: (f) => <Share value={f.ofPrevious} label={pct(f.ofPrevious)} /> },
  { head: 'Of all who signed up', cell: (f) => <Share value={f.ofSignedUp} label={pct(f.ofSignedUp)} /> },
];

const mixColumns = (what: string): AdminColumn<MixRow>[] => [
  { head: what, className: 'capitalize', cell: (m) => m.key, sortValue: (m) => m.key },
  { head: 'Members', className: 'tabular-nums', cell: (m) => m.count, sortValue: (m) => m.count },
  { head: 'Share', cell: (m) => <Share value={m.percent} label={pct(m.percent)} />, sortValue: (m) => m.percent },
];

/** analytics (spec section 2): retention cohorts, the funnel, the mode and tier mix, and CSV exports. */
export function AnalyticsScreen() {
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.analytics(), () => staffCall('GET /admin/analytics'));
  const [error, setError] = useState<string | null>(null);
  const exportCsv = (kind: (typeof ANALYTICS_EXPORTS)[number]) => {
    setError(null);
    staffDownload(`/admin/analytics/export?kind=${kind}`, `analytics-${kind}.csv`).catch((e) =>
      setError(errorMessage(e, 'The export failed.')),
    );
  };
  return (
    <>
      <ScreenTitle
        actions={
          mayUse(me, 'analytics.export') ? (
            <span className="flex flex-wrap gap-2">
              {ANALYTICS_EXPORTS.map((kind) => (
                <Button key={kind} variant="secondary" className="min-h-10 px-4 text-sm" onClick={() => exportCsv(kind)}>
                  Export {kind} CSV
                </Button>
              ))}
            </span>
          ) : null
        }
      >
        Analytics
      </ScreenTitle>
      <FormError boxed>{error}</FormError>
      <QueryState
        q={q}
        what="analytics"
        isEmpty={(d: Analytics) => d.funnel[0]?.count === 0 && d.modeMix.every((m) => m.count === 0)}
        empty={{ title: 'No members yet', body: 'Cohorts and the funnel start with the first sign-up.' }}
      >
        {(d) => {
          const weeks = Math.max(0, ...d.cohorts.map((c) => c.weeks.length));
          return (
            <div className="flex flex-col gap-6">
              <Section
                title="Retention by sign-up week"
                note={`Members who signed up each week since ${d.from} (weeks start on Monday, UTC), and the share of them active in each week after. Active means ${d.activeMeans}.`}
              >
                {d.cohorts.length === 0 ? (
                  <p className="rounded-xl bg-canvas p-4 text-sm text-ink">No sign-ups in these weeks.</p>
                ) : (
                  <AdminTable
                    caption="Share of each sign-up week's members active, by week since sign-up"
                    captionHidden
                    columns={cohortColumns(weeks)}
                    rows={d.cohorts}
                    rowKey={(c) => c.cohort}
                  />
                )}
              </Section>
              <Section
                title="Funnel"
                note={`Members who signed up since ${d.from}: each step counts those who also reached every step before it.`}
              >
                <AdminTable
                  caption="From sign-up to a first message"
                  captionHidden
                  columns={funnelColumns}
                  rows={d.funnel}
                  rowKey={(f) => f.step}
                />
              </Section>
              <div className="grid gap-6 md:grid-cols-2">
                <Section title="Mode mix" note="Active accounts by the mode they are in now.">
                  <AdminTable
                    caption="Accounts by mode"
                    captionHidden
                    columns={mixColumns('Mode')}
                    rows={d.modeMix}
                    rowKey={(m) => m.key}
                  />
                </Section>
                <Section title="Tier mix" note="Active accounts by their tier.">
                  <AdminTable
                    caption="Accounts by tier"
                    captionHidden
                    columns={mixColumns('Tier')}
                    rows={d.tierMix}
                    rowKey={(m) => m.key}
                  />
                </Section>
              </div>
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
