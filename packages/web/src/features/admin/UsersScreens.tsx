import { TIERS, type Tier } from '@fmk/core';
import { Link } from 'react-router';
import { TextField } from '../../ui/TextField.tsx';
import { AdminListPage, FilterSelect, ListSearch } from './AdminListPage.tsx';
import { DataTable, when } from './parts.tsx';
import { adminKeys } from './queries.ts';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

/** Users (spec section 2): search by email, anonymous id or name; filters; 50 a page. No email is shown. */
export function UsersScreen() {
  const list = useAdminList({
    initial: { q: '', status: 'all' as 'all' | 'active' | 'inactive', tier: '' as Tier | '' },
    key: adminKeys.users,
    fetch: (query) => staffCall('GET /admin/users', { query }),
  });
  return (
    <AdminListPage
      list={list}
      title="Users"
      what="users"
      empty={{ title: 'No users match', body: 'Try another search or filter.' }}
      search={
        <ListSearch list={list} label="Search users" grid="md:grid-cols-[1fr_10rem_10rem_auto]">
          <TextField label="Search" placeholder="Email, anonymous id or name" {...list.field('q')} />
          <FilterSelect
            list={list}
            name="status"
            label="Status"
            any="All"
            anyValue="all"
            options={['active', 'inactive']}
            names={{ active: 'Active', inactive: 'Inactive' }}
          />
          <FilterSelect list={list} name="tier" label="Tier" any="Any" options={TIERS} />
        </ListSearch>
      }
    >
      {(d) => (
        <DataTable
          label="Users"
          rows={d.rows}
          rowKey={(u) => u.id}
          columns={[
            {
              head: 'User',
              cell: (u) => (
                <>
                  <Link className="font-semibold text-primary-strong underline" to={`/admin/users/${u.id}`}>
                    {u.displayName ?? 'Anonymous'}
                  </Link>
                  {u.staffRole ? <span className="ml-2 text-xs text-muted">{u.staffRole.replace('_', ' ')}</span> : null}
                </>
              ),
            },
            { head: 'Anonymous id', className: 'font-mono', cell: (u) => u.anonymousId ?? '—' },
            { head: 'Tier', cell: (u) => u.tier },
            { head: 'Status', cell: (u) => (u.isActive ? 'active' : 'inactive') },
            { head: 'Joined', cell: (u) => when(u.createdAt) },
          ]}
        />
      )}
    </AdminListPage>
  );
}
