import { REPORT_STATUSES, type ReportStatus, type StaffUserReport } from '@fmk/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { Pager, QueryState, ScreenTitle, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

/**
 * Reports triage (users/reports): the evidence (the reported messages, as they were), the
 * history, and the action: ban the reported member, or move the report on. An outcome (actioned,
 * dismissed) reaches the reporter as an alert, sent by the safety module. The top-level reports
 * screen (triage) opens on every status and adds the suspicious-behaviour items. The server sends
 * the newest 200 of a status, so search and paging run here, over that list.
 */
export function ReportsScreen({ triage = false }: { triage?: boolean }) {
  const me = useAdminMe().data;
  const [status, setStatus] = useState<ReportStatus | 'all'>(triage ? 'all' : 'pending');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useStaffQuery(adminKeys.reports(status), () =>
    staffCall('GET /admin/reports', { query: status === 'all' ? {} : { status } }),
  );
  const move = useStaffMutation((v: { id: string; status: ReportStatus }) =>
    staffCall('PATCH /admin/reports/:id', { params: { id: v.id }, body: { status: v.status } }),
  );
  const [banFor, setBanFor] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ban = useStaffMutation(async (v: { reportId: string; userId: string; status: ReportStatus }) => {
    await staffCall('POST /admin/users/:id/ban', { params: { id: v.userId }, body: { reason } });
    if (v.status === 'pending')
      await staffCall('PATCH /admin/reports/:id', { params: { id: v.reportId }, body: { status: 'reviewed' } });
    await staffCall('PATCH /admin/reports/:id', { params: { id: v.reportId }, body: { status: 'actioned' } });
  });
  return (
    <>
      <ScreenTitle>Reports</ScreenTitle>
      {triage ? <FlagsPanel /> : null}
      <div role="tablist" aria-label="Report status" className="mb-4 flex flex-wrap gap-2">
        {(['all', ...REPORT_STATUSES] as const).map((s) => (
          <button
            key={s}
            role="tab"
            type="button"
            aria-selected={status === s}
            onClick={() => {
              setStatus(s);
              setPage(1);
            }}
            className={`rounded-full px-4 py-2 text-sm font-semibold ${status === s ? 'bg-ink text-white' : 'bg-canvas text-ink'}`}
          >
            {s}
          </button>
        ))}
      </div>
      <div className="mb-4 max-w-md">
        <TextField
          label="Search reports"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
      </div>
      <QueryState
        q={q}
        what="reports"
        isEmpty={(d) => d.length === 0}
        empty={{ title: status === 'all' ? 'No reports' : `No ${status} reports`, body: 'Reports members file land here.' }}
      >
        {(all) => {
          const found = all.filter((r) => matches(r, search));
          const rows = found.slice((page - 1) * REPORTS_PAGE, page * REPORTS_PAGE);
          return (
            <>
              {found.length === 0 ? <p className="text-sm text-muted">No report matches “{search}”.</p> : null}
              <ul className="flex flex-col gap-3">
                {rows.map((r) => (
                  <li key={r.id} className="rounded-xl border border-line p-4 text-sm text-ink" data-testid="report">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <p className="font-semibold">
                        {r.category} · {r.reason}
                      </p>
                      <p className="text-muted">
                        {r.status} · filed {when(r.createdAt)} · updated {when(r.updatedAt)}
                      </p>
                    </div>
                    <p className="mt-1">
                      Reported:{' '}
                      <Link className="font-semibold text-primary-strong underline" to={`/admin/users/${r.reportedUserId}`}>
                        member
                      </Link>{' '}
                      · by{' '}
                      <Link className="text-primary-strong underline" to={`/admin/users/${r.reporterId}`}>
                        reporter
                      </Link>
                      {r.blocked ? ' · reporter blocked him' : ''}
                    </p>
                    {r.description ? <p className="mt-2 whitespace-pre-wrap">{r.description}</p> : null}
                    {r.messages.length ? (
                      <section aria-label="Reported messages" className="mt-3 rounded-lg bg-canvas p-3">
                        <h3 className="font-semibold">Evidence: reported messages</h3>
                        <ul className="mt-1 flex flex-col gap-1">
                          {r.messages.map((m) => (
                            <li key={m.id}>
                              <span className="text-muted">
                                {m.fromReported ? 'Him' : 'Reporter'}, {when(m.sentAt)}:
                              </span>{' '}
                              {m.type === 'photo' ? '[photo]' : m.content}
                            </li>
                          ))}
                        </ul>
                      </section>
                    ) : null}
                    {r.screenshots.length ? (
                      <p className="mt-2 text-muted">{r.screenshots.length} screenshot(s) attached</p>
                    ) : null}
                    {mayUse(me, 'reports.edit') && (r.status === 'pending' || r.status === 'reviewed') ? (
                      <div className="mt-3 flex flex-wrap gap-2">
                        {r.status === 'pending' ? (
                          <Button
                            variant="secondary"
                            className="min-h-10 px-3 text-sm"
                            onClick={() => move.mutate({ id: r.id, status: 'reviewed' })}
                          >
                            Mark reviewed
                          </Button>
                        ) : null}
                        <Button
                          variant="secondary"
                          className="min-h-10 px-3 text-sm"
                          onClick={() => move.mutate({ id: r.id, status: 'dismissed' })}
                        >
                          Dismiss
                        </Button>
                        <Button
                          variant="secondary"
                          className="min-h-10 px-3 text-sm"
                          onClick={() => move.mutate({ id: r.id, status: 'actioned' })}
                        >
                          Mark actioned
                        </Button>
                        {mayUse(me, 'users.ban') ? (
                          <Button
                            variant="danger"
                            className="min-h-10 px-3 text-sm"
                            onClick={() => setBanFor(banFor === r.id ? null : r.id)}
                          >
                            Ban him
                          </Button>
                        ) : null}
                      </div>
                    ) : null}
                    {banFor === r.id ? (
                      <form
                        className="mt-3 flex flex-col gap-2"
                        aria-label="Ban the reported member"
                        onSubmit={(e) => {
                          e.preventDefault();
                          setError(null);
                          ban.mutate(
                            { reportId: r.id, userId: r.reportedUserId, status: r.status },
                            {
                              onSuccess: () => {
                                setBanFor(null);
                                setReason('');
                              },
                              onError: (err) => setError(errorMessage(err, 'The ban did not go through.')),
                            },
                          );
                        }}
                      >
                        <TextField label="Reason for the ban" value={reason} onChange={(e) => setReason(e.target.value)} />
                        <FormError>{error}</FormError>
                        <Button type="submit" variant="danger" loading={ban.isPending}>
                          Ban permanently
                        </Button>
                      </form>
                    ) : null}
                  </li>
                ))}
              </ul>
              {found.length > REPORTS_PAGE ? (
                <Pager page={page} pageSize={REPORTS_PAGE} total={found.length} onPage={setPage} />
              ) : null}
            </>
          );
        }}
      </QueryState>
    </>
  );
}

const REPORTS_PAGE = 20;

/** A report matches a search on its category, reason, description or either member's id. */
function matches(r: StaffUserReport, search: string): boolean {
  const s = search.trim().toLowerCase();
  if (!s) return true;
  return [r.category, r.reason, r.description, r.reportedUserId, r.reporterId].some((f) => f.toLowerCase().includes(s));
}

/** Suspicious behaviour: members several others reported within a week, open items first. */
function FlagsPanel() {
  const q = useStaffQuery(adminKeys.flags(), () => staffCall('GET /admin/safety/flags'));
  return (
    <section aria-label="Suspicious behaviour" className="mb-6 rounded-xl border border-line p-4">
      <h2 className="mb-2 text-lg font-semibold text-ink">Suspicious behaviour</h2>
      <QueryState
        q={q}
        what="suspicious behaviour"
        isEmpty={(d) => d.length === 0}
        empty={{ title: 'Nothing suspicious', body: 'A member several others report within a week shows here.' }}
      >
        {(flags) => (
          <ul className="flex flex-col gap-2 text-sm text-ink">
            {[...flags]
              .sort((a, b) => (a.status === b.status ? 0 : a.status === 'open' ? -1 : 1))
              .map((f) => (
                <li key={f.id} data-testid="safety-flag">
                  <Link className="font-semibold text-primary-strong underline" to={`/admin/users/${f.userId}`}>
                    member
                  </Link>{' '}
                  reported by {f.reporters} members within a week · {f.status} · {when(f.createdAt)}
                </li>
              ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
