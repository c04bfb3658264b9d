import { type FormEvent, useState } from 'react';
import { searchOf } from '../../api/call.ts';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { DataTable, Pager, QueryState, ScreenTitle, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffQuery } from './queries.ts';
import { staffCall, staffDownload } from './session.ts';

/** system/audit: every staff action, 100 a page (spec section 9), filterable, CSV export, and whether the hash chain holds. */
export function AuditScreen() {
  const me = useAdminMe().data;
  const [draft, setDraft] = useState({ action: '', q: '' });
  const [filter, setFilter] = useState({ action: '', q: '', page: 1 });
  const [error, setError] = useState<string | null>(null);
  const query = { action: filter.action || undefined, q: filter.q || undefined, page: filter.page };
  const q = useStaffQuery(adminKeys.audit(query), () => staffCall('GET /admin/audit', { query }));
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilter({ ...draft, page: 1 });
  };
  const exportCsv = () => {
    setError(null);
    const search = searchOf({ action: query.action, q: query.q });
    staffDownload(`/admin/audit/export${search ? `?${search}` : ''}`, 'audit.csv').catch((e) =>
      setError(errorMessage(e, 'The export failed.')),
    );
  };
  return (
    <>
      <ScreenTitle
        actions={
          mayUse(me, 'audit_logs.export') ? (
            <Button variant="secondary" className="min-h-10 px-4 text-sm" onClick={exportCsv}>
              Export CSV
            </Button>
          ) : null
        }
      >
        Audit log
      </ScreenTitle>
      <FormError boxed>{error}</FormError>
      <form
        aria-label="Filter the audit log"
        onSubmit={apply}
        className="mb-4 grid gap-3 md:grid-cols-[1fr_1fr_auto] md:items-end"
      >
        <TextField
          label="Action"
          placeholder="e.g. ban_email"
          value={draft.action}
          onChange={(e) => setDraft((d) => ({ ...d, action: e.target.value }))}
        />
        <TextField
          label="Search reason or target"
          value={draft.q}
          onChange={(e) => setDraft((d) => ({ ...d, q: e.target.value }))}
        />
        <Button type="submit">Filter</Button>
      </form>
      <QueryState q={q} what="the audit log" isEmpty={(d) => d.rows.length === 0} empty={{ title: 'No audit rows match' }}>
        {(d) => (
          <>
            <p
              className={`mb-3 rounded-lg p-3 text-sm font-semibold ${d.chain.ok ? 'bg-canvas text-ink' : 'bg-primary-soft text-ink'}`}
              role="status"
            >
              {d.chain.ok
                ? `Hash chain intact (${d.chain.rows} rows).`
                : `Hash chain broken at row ${d.chain.brokenAt}: the log was changed.`}
            </p>
            <DataTable
              label="Audit rows"
              rows={d.rows}
              rowKey={(r) => r.id}
              columns={[
                { head: 'Time', cell: (r) => when(r.createdAt) },
                { head: 'Staff', cell: (r) => r.adminEmail ?? r.adminId },
                { head: 'Action', className: 'font-mono', cell: (r) => r.action },
                {
                  head: 'Target',
                  className: 'font-mono',
                  cell: (r) => [r.targetType, r.targetId ?? r.anonymousId].filter(Boolean).join(' ') || '—',
                },
                { head: 'Reason', cell: (r) => r.reason },
                { head: 'IP', cell: (r) => r.ipAddress ?? '—' },
              ]}
            />
            <Pager page={d.page} pageSize={d.pageSize} total={d.total} onPage={(page) => setFilter((f) => ({ ...f, page }))} />
          </>
        )}
      </QueryState>
    </>
  );
}
