import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AdminListPage, ListSearch } from './AdminListPage.tsx';
import { DataTable, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation } from './queries.ts';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

/** users/banned: the banned-email records by hash (never the email), searched and paged on the server; lifting a ban. */
export function BannedScreen() {
  const me = useAdminMe().data;
  const list = useAdminList({
    initial: { q: '' },
    key: adminKeys.bans,
    fetch: (query) => staffCall('GET /admin/bans', { query }),
  });
  const [error, setError] = useState<string | null>(null);
  const lift = useStaffMutation((hash: string) => staffCall('DELETE /admin/bans/:hash', { params: { hash } }));
  return (
    <AdminListPage
      list={list}
      title="Banned emails"
      what="bans"
      empty={{ title: 'No bans', body: 'Banned emails are listed here by their hash.' }}
      noMatch={{ title: 'No ban matches', body: 'Try other words, or an exact email.' }}
      search={
        <>
          <ListSearch list={list} label="Search bans" grid="md:grid-cols-[1fr_auto]" variant="secondary">
            <TextField label="Search" placeholder="Exact email, reason, anonymous id, hash or staff name" {...list.field('q')} />
          </ListSearch>
          <FormError boxed>{error}</FormError>
        </>
      }
    >
      {(d) => (
        <DataTable
          label="Bans"
          rows={d.rows}
          rowKey={(b) => b.hash}
          columns={[
            { head: 'Email hash', className: 'font-mono', cell: (b) => `${b.hash.slice(0, 12)}…` },
            { head: 'Reason', cell: (b) => b.reason },
            { head: 'By', cell: (b) => b.bannedByName ?? `staff ${b.bannedBy.slice(0, 8)}` },
            { head: 'Banned', cell: (b) => when(b.bannedAt) },
            { head: 'Until', cell: (b) => (b.isPermanent ? 'permanent' : when(b.until)) },
            { head: 'Anonymous ids', className: 'font-mono', cell: (b) => b.associatedAnonymousIds.join(', ') || '—' },
            {
              head: 'Actions',
              hideHead: true,
              cell: (b) =>
                mayUse(me, 'users.ban') ? (
                  <Button
                    variant="secondary"
                    className="min-h-10 px-3 text-sm"
                    loading={lift.isPending && lift.variables === b.hash}
                    onClick={() => {
                      setError(null);
                      lift.mutate(b.hash, { onError: (e) => setError(errorMessage(e, 'The ban was not lifted.')) });
                    }}
                  >
                    Lift ban
                  </Button>
                ) : null,
            },
          ]}
        />
      )}
    </AdminListPage>
  );
}
