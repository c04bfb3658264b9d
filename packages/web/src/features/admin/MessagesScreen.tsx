import { Link } from 'react-router';
import { AdminListPage } from './AdminListPage.tsx';
import { TableWrap, tableClass, tdClass, thClass, when } from './parts.tsx';
import { adminKeys } from './queries.ts';
import { EvidenceContent } from './StaffPhoto.tsx';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

/**
 * messages: only the messages members attached to a report as evidence, as they were when
 * reported, each with its report. Staff never read any other conversation; the server lists
 * nothing else.
 */
export function MessagesScreen() {
  const list = useAdminList({
    initial: {},
    key: adminKeys.messages,
    fetch: (query) => staffCall('GET /admin/messages', { query }),
  });
  return (
    <AdminListPage
      list={list}
      title="Reported messages"
      top={<p className="mb-4 text-sm text-muted">Only messages kept as evidence in a report. No other conversation is shown.</p>}
      what="reported messages"
      empty={{ title: 'No reported messages', body: 'Messages members attach to a report show here.' }}
    >
      {(d) => (
        <TableWrap label="Reported messages">
          <table className={tableClass}>
            <thead>
              <tr>
                <th className={thClass}>Message</th>
                <th className={thClass}>From</th>
                <th className={thClass}>Sent</th>
                <th className={thClass}>Report</th>
              </tr>
            </thead>
            <tbody>
              {d.rows.map((m) => (
                <tr key={`${m.reportId}:${m.id}`} data-testid="evidence">
                  <td className={`${tdClass} whitespace-pre-wrap`}>
                    <EvidenceContent m={m} />
                  </td>
                  <td className={tdClass}>
                    <Link
                      className="text-primary-strong underline"
                      to={`/admin/users/${m.fromReported ? m.reportedUserId : m.reporterId}`}
                    >
                      {m.fromReported ? 'Reported member' : 'Reporter'}
                    </Link>
                  </td>
                  <td className={tdClass}>{when(m.sentAt)}</td>
                  <td className={tdClass}>
                    {m.reportCategory} · {m.reportStatus}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </AdminListPage>
  );
}
