import { useState } from 'react';
import { searchOf } from '../../api/call.ts';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AdminListPage, ListSearch } from './AdminListPage.tsx';
import { AdminTable } from './AdminTable.tsx';
import { when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe } from './queries.ts';
import { staffCall, staffDownload } from './session.ts';
import { useAdminList } from './useAdminList.ts';

/** system/audit: every staff action, 100 a page (spec section 9), filterable, CSV export, and whether the hash chain holds. */
export function AuditScreen() {
  const me = useAdminMe().data;
  const list = useAdminList({
    initial: { action: '', q: '' },
    typed: ['action', 'q'],
    key: adminKeys.audit,
    fetch: (query) => staffCall('GET /admin/audit', { query }),
  });
  const [error, setError] = useState<string | null>(null);
  const exportCsv = () => {
    setError(null);
    const search = searchOf({ action: list.query.action, q: list.query.q });
    staffDownload(`/admin/audit/export${search ? `?${search}` : ''}`, 'audit.csv').catch((e) =>
      setError(errorMessage(e, 'The export failed.')),
    );
  };
  return (
    <AdminListPage
      list={list}
      title="Audit log"
      actions={
        mayUse(me, 'audit_logs.export') ? (
          <Button variant="secondary" className="min-h-10 px-4 text-sm" onClick={exportCsv}>
            Export CSV
          </Button>
        ) : null
      }
      top={<FormError boxed>{error}</FormError>}
      search={
        <ListSearch list={list} label="Filter the audit log" grid="md:grid-cols-[1fr_1fr_auto]" button="Filter">
          <TextField label="Action" placeholder="e.g. ban_email" {...list.field('action')} />
          <TextField label="Search reason or target" {...list.field('q')} />
        </ListSearch>
      }
      what="the audit log"
      empty={{ title: 'No audit rows match' }}
    >
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
          <AdminTable
            caption="Audit rows, newest first"
            rows={d.rows}
            rowKey={(r) => r.id}
            columns={[
              { head: 'Time', cell: (r) => when(r.createdAt), sortValue: (r) => r.createdAt },
              { head: 'Staff', cell: (r) => r.adminEmail ?? r.adminId, sortValue: (r) => r.adminEmail ?? r.adminId },
              { head: 'Action', className: 'font-mono', cell: (r) => r.action, sortValue: (r) => r.action },
              {
                head: 'Target',
                className: 'font-mono',
                cell: (r) => [r.targetType, r.targetId ?? r.anonymousId].filter(Boolean).join(' ') || '—',
              },
              { head: 'Reason', cell: (r) => r.reason },
              { head: 'IP', cell: (r) => r.ipAddress ?? '—' },
            ]}
          />
        </>
      )}
    </AdminListPage>
  );
}
