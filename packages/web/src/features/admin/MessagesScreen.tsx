import { useState } from 'react';
import { Link } from 'react-router';
import { Pager, QueryState, ScreenTitle, TableWrap, tableClass, tdClass, thClass, when } from './parts.tsx';
import { adminKeys, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

/**
 * messages: only the messages members attached to a report as evidence, as they were when
 * reported, each with its report. Staff never read any other conversation; the server lists
 * nothing else.
 */
export function MessagesScreen() {
  const [page, setPage] = useState(1);
  const q = useStaffQuery(adminKeys.messages(page), () => staffCall('GET /admin/messages', { query: { page } }));
  return (
    <>
      <ScreenTitle>Reported messages</ScreenTitle>
      <p className="mb-4 text-sm text-muted">Only messages kept as evidence in a report. No other conversation is shown.</p>
      <QueryState
        q={q}
        what="reported messages"
        isEmpty={(d) => d.total === 0}
        empty={{ title: 'No reported messages', body: 'Messages members attach to a report show here.' }}
      >
        {(d) => (
          <>
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
                      <td className={`${tdClass} whitespace-pre-wrap`}>{m.type === 'photo' ? '[photo]' : m.content}</td>
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
            <Pager page={d.page} pageSize={d.pageSize} total={d.total} onPage={setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
