import {
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  REPORT_STATUSES,
  type ReportCategory,
  type ReportStatus,
  type StaffUserReport,
} from '@fmk/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AdminListPage, FilterSelect, ListSearch, StatusTabs } from './AdminListPage.tsx';
import { QueryState, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { EvidenceContent, StaffPhoto } from './StaffPhoto.tsx';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

type Status = ReportStatus | 'all';

/** A member on a report as staff see him: his name, else his anonymous id; linked to his record. */
function Person({ id, p, fallback }: { id: string; p: StaffUserReport['reporter']; fallback: string }) {
  return (
    <Link className="font-semibold text-primary-strong underline" to={`/admin/users/${id}`}>
      {p.displayName ?? p.anonymousId ?? fallback}
    </Link>
  );
}

/**
 * Reports triage (reports, users/reports): the evidence (the reported messages as they were, their
 * photos, the screenshots), the history, and the action: ban the reported member, or move the
 * report on; an outcome (actioned, dismissed) reaches the reporter as an alert. Status, category,
 * words and pages are the server's (GET /admin/reports). The top-level screen opens on every status
 * and adds the suspicious-behaviour items.
 */
export function ReportsScreen({ triage = false }: { triage?: boolean }) {
  const me = useAdminMe().data;
  const list = useAdminList({
    initial: { status: (triage ? 'all' : 'pending') as Status, category: '' as ReportCategory | '', q: '' },
    tab: 'status',
    key: adminKeys.reports,
    fetch: (query) => staffCall('GET /admin/reports', { query }),
  });
  const { status } = list.filter;
  return (
    <AdminListPage
      list={list}
      title="Reports"
      top={
        <>
          {triage ? <FlagsPanel /> : null}
          <StatusTabs
            label="Report status"
            options={['all', ...REPORT_STATUSES] as Status[]}
            value={status}
            onChange={(s) => list.set({ status: s })}
          />
        </>
      }
      search={
        <ListSearch list={list} label="Report filters" grid="md:grid-cols-[1fr_14rem_auto]" variant="secondary">
          <TextField label="Search reports" placeholder="Words, a name or an anonymous id" type="search" {...list.field('q')} />
          <FilterSelect
            list={list}
            name="category"
            label="Category"
            any="Every category"
            options={REPORT_CATEGORIES}
            names={REPORT_CATEGORY_LABELS}
          />
        </ListSearch>
      }
      what="reports"
      empty={{ title: status === 'all' ? 'No reports' : `No ${status} reports`, body: 'Reports members file land here.' }}
      noMatch={{ title: 'No report matches', body: 'Try other words or another category.' }}
    >
      {(d) => (
        <ul className="flex flex-col gap-3">
          {d.rows.map((r) => (
            <ReportCard key={r.id} r={r} mayEdit={mayUse(me, 'reports.edit')} mayBan={mayUse(me, 'users.ban')} />
          ))}
        </ul>
      )}
    </AdminListPage>
  );
}

function ReportCard({ r, mayEdit, mayBan }: { r: StaffUserReport; mayEdit: boolean; mayBan: boolean }) {
  const [banning, setBanning] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const move = useStaffMutation((status: ReportStatus) =>
    staffCall('PATCH /admin/reports/:id', { params: { id: r.id }, body: { status } }),
  );
  const ban = useStaffMutation(async () => {
    await staffCall('POST /admin/users/:id/ban', { params: { id: r.reportedUserId }, body: { reason } });
    if (r.status === 'pending')
      await staffCall('PATCH /admin/reports/:id', { params: { id: r.id }, body: { status: 'reviewed' } });
    await staffCall('PATCH /admin/reports/:id', { params: { id: r.id }, body: { status: 'actioned' } });
  });
  const moveTo = (status: ReportStatus) =>
    move.mutate(status, { onError: (err) => setError(errorMessage(err, 'The report did not move.')) });
  const open = r.status === 'pending' || r.status === 'reviewed';
  const small = 'min-h-10 px-3 text-sm';
  return (
    <li className="rounded-xl border border-line p-4 text-sm text-ink" data-testid="report">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          {r.category} · {r.reason}
        </p>
        <p className="text-muted">
          {r.status} · filed {when(r.createdAt)} · updated {when(r.updatedAt)}
        </p>
      </div>
      <p className="mt-1">
        Reported: <Person id={r.reportedUserId} p={r.reportedUser} fallback="member" /> · by{' '}
        <Person id={r.reporterId} p={r.reporter} fallback="reporter" />
        {r.blocked ? ' · the reporter blocked him' : ''}
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
                <EvidenceContent m={m} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {r.screenshots.length ? (
        <section aria-label="Screenshots" className="mt-3 flex flex-wrap gap-2">
          {r.screenshots.map((s, i) => (
            <StaffPhoto
              key={s.id}
              path={`/reports/screenshots/${s.id}`}
              alt={`Screenshot ${i + 1} the reporter attached`}
              className="max-h-48 w-auto rounded-lg border border-line"
            />
          ))}
        </section>
      ) : null}
      {mayEdit && open ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {r.status === 'pending' ? (
            <Button variant="secondary" className={small} onClick={() => moveTo('reviewed')}>
              Mark reviewed
            </Button>
          ) : null}
          <Button variant="secondary" className={small} onClick={() => moveTo('dismissed')}>
            Dismiss
          </Button>
          <Button variant="secondary" className={small} onClick={() => moveTo('actioned')}>
            Mark actioned
          </Button>
          {mayBan ? (
            <Button variant="danger" className={small} onClick={() => setBanning((b) => !b)}>
              Ban him
            </Button>
          ) : null}
        </div>
      ) : null}
      {banning ? (
        <form
          className="mt-3 flex flex-col gap-2"
          aria-label="Ban the reported member"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            ban.mutate(undefined, {
              onSuccess: () => {
                setBanning(false);
                setReason('');
              },
              onError: (err) => setError(errorMessage(err, 'The ban did not go through.')),
            });
          }}
        >
          <TextField label="Reason for the ban" value={reason} onChange={(e) => setReason(e.target.value)} />
          <Button type="submit" variant="danger" loading={ban.isPending}>
            Ban permanently
          </Button>
        </form>
      ) : null}
      <FormError>{error}</FormError>
    </li>
  );
}

/** Suspicious behaviour: members several others reported within a week, open items first. */
function FlagsPanel() {
  const q = useStaffQuery(adminKeys.flags(), () => staffCall('GET /admin/safety/flags'));
  return (
    <section aria-label="Suspicious behaviour" className="mb-6 rounded-xl border border-line p-4">
      <h2 className="mb-2 text-lg font-semibold text-ink">Suspicious behaviour</h2>
      <QueryState q={q} what="suspicious behaviour">
        {(flags) =>
          flags.length === 0 ? (
            <p className="text-sm text-muted">
              <strong className="text-ink">Nothing suspicious</strong>. A member several others report within a week shows here.
            </p>
          ) : (
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
          )
        }
      </QueryState>
    </section>
  );
}
