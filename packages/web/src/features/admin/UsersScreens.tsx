import { TIERS, type Tier } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { SelectField, TextField } from '../../ui/TextField.tsx';
import { DataTable, Pager, QueryState, ScreenTitle, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

/** Users (spec section 2): search by email, anonymous id or name; filters; 50 a page. No email is shown. */
export function UsersScreen() {
  const [draft, setDraft] = useState('');
  const [filter, setFilter] = useState<{ q: string; status: 'all' | 'active' | 'inactive'; tier: Tier | ''; page: number }>({
    q: '',
    status: 'all',
    tier: '',
    page: 1,
  });
  const query = { q: filter.q || undefined, status: filter.status, tier: filter.tier || undefined, page: filter.page };
  const q = useStaffQuery(adminKeys.users(query), () => staffCall('GET /admin/users', { query }));
  const search = (e: FormEvent) => {
    e.preventDefault();
    setFilter((f) => ({ ...f, q: draft.trim(), page: 1 }));
  };
  return (
    <>
      <ScreenTitle>Users</ScreenTitle>
      <form
        aria-label="Search users"
        onSubmit={search}
        className="mb-4 grid gap-3 md:grid-cols-[1fr_10rem_10rem_auto] md:items-end"
      >
        <TextField
          label="Search"
          placeholder="Email, anonymous id or name"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <SelectField
          label="Status"
          value={filter.status}
          onChange={(e) => setFilter((f) => ({ ...f, status: e.target.value as 'all', page: 1 }))}
        >
          <option value="all">All</option>
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
        </SelectField>
        <SelectField
          label="Tier"
          value={filter.tier}
          onChange={(e) => setFilter((f) => ({ ...f, tier: e.target.value as Tier, page: 1 }))}
        >
          <option value="">Any</option>
          {TIERS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <Button type="submit">Search</Button>
      </form>
      <QueryState
        q={q}
        what="users"
        isEmpty={(d) => d.rows.length === 0}
        empty={{ title: 'No users match', body: 'Try another search or filter.' }}
      >
        {(d) => (
          <>
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
            <Pager page={d.page} pageSize={d.pageSize} total={d.total} onPage={(page) => setFilter((f) => ({ ...f, page }))} />
          </>
        )}
      </QueryState>
    </>
  );
}

/** A form with a reason, for one staff action. */
function ActionForm({
  title,
  submit,
  variant = 'secondary',
  extra,
  onDone,
  run,
}: {
  title: string;
  submit: string;
  variant?: 'secondary' | 'danger' | 'primary';
  extra?: React.ReactNode;
  onDone?: (r: unknown) => void;
  run: (reason: string, form: FormData) => Promise<unknown>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const m = useStaffMutation((v: { reason: string; form: FormData }) => run(v.reason, v.form));
  return (
    <form
      aria-label={title}
      className="flex flex-col gap-3 rounded-xl border border-line p-4"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        const form = new FormData(e.currentTarget);
        m.mutate(
          { reason, form },
          {
            onSuccess: (r) => {
              setReason('');
              onDone?.(r);
            },
            onError: (err) => setError(errorMessage(err, 'That did not work.')),
          },
        );
      }}
    >
      <h2 className="font-semibold text-ink">{title}</h2>
      {extra}
      <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} required minLength={3} />
      <FormError>{error}</FormError>
      <Button type="submit" variant={variant} loading={m.isPending}>
        {submit}
      </Button>
    </form>
  );
}

/** One user as staff see him: profile, tier, status, reports for and against, moderation items; the actions on him. */
export function UserDetailScreen() {
  const { id = '' } = useParams();
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.user(id), () => staffCall('GET /admin/users/:id', { params: { id } }));
  const [email, setEmail] = useState<string | null>(null);
  return (
    <>
      <ScreenTitle
        actions={
          <Link className="text-sm font-semibold text-primary-strong underline" to="/admin/users">
            All users
          </Link>
        }
      >
        User
      </ScreenTitle>
      <QueryState q={q} what="this user">
        {(u) => (
          <div className="grid gap-4 md:grid-cols-2">
            <section aria-label="Profile" className="rounded-xl bg-canvas p-4 text-sm text-ink">
              <p className="text-lg font-bold">{u.displayName ?? 'Anonymous'}</p>
              <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-y-1">
                <dt className="text-muted">Anonymous id</dt>
                <dd className="font-mono" data-testid="anon-id">
                  {u.anonymousId ?? '—'}
                </dd>
                <dt className="text-muted">Age</dt>
                <dd>{u.age ?? '—'}</dd>
                <dt className="text-muted">Tier</dt>
                <dd>{u.tier}</dd>
                <dt className="text-muted">Status</dt>
                <dd>
                  {u.banned
                    ? `banned${u.banned.until ? ` until ${when(u.banned.until)}` : ' permanently'}: ${u.banned.reason}`
                    : u.isActive
                      ? 'active'
                      : 'inactive'}
                </dd>
                <dt className="text-muted">Staff role</dt>
                <dd>{u.staffRole ?? '—'}</dd>
                <dt className="text-muted">Photos</dt>
                <dd>{u.photos}</dd>
                <dt className="text-muted">Reports against</dt>
                <dd>{u.reportsAgainst}</dd>
                <dt className="text-muted">Reports made</dt>
                <dd>{u.reportsBy}</dd>
                <dt className="text-muted">Joined</dt>
                <dd>{when(u.createdAt)}</dd>
                <dt className="text-muted">Last seen</dt>
                <dd>{when(u.lastSeen)}</dd>
              </dl>
              <p className="mt-2 whitespace-pre-wrap">{u.bio ?? 'No bio yet'}</p>
              <h2 className="mt-3 font-semibold">Moderation items</h2>
              {u.moderationItems.length === 0 ? (
                <p className="text-muted">None.</p>
              ) : (
                <ul>
                  {u.moderationItems.map((m) => (
                    <li key={m.id}>
                      {m.status} · {when(m.createdAt)}
                    </li>
                  ))}
                </ul>
              )}
              {email ? (
                <p className="mt-3 rounded-lg bg-white p-2">
                  Email (lookup audited): <strong>{email}</strong>
                </p>
              ) : null}
            </section>
            <div className="flex flex-col gap-3">
              {mayUse(me, 'users.ban') ? (
                <ActionForm
                  title="Ban"
                  submit="Ban this user"
                  variant="danger"
                  extra={<TextField label="Until (leave empty for a permanent ban)" type="date" name="until" />}
                  run={(reason, form) => {
                    const until = String(form.get('until') ?? '');
                    return staffCall('POST /admin/users/:id/ban', {
                      params: { id },
                      body: { reason, until: until ? new Date(`${until}T00:00:00Z`).toISOString() : null },
                    });
                  }}
                />
              ) : null}
              {mayUse(me, 'users.edit') ? (
                <>
                  <ActionForm
                    title={u.isActive ? 'Deactivate' : 'Reactivate'}
                    submit={u.isActive ? 'Deactivate the account' : 'Reactivate the account'}
                    run={(reason) =>
                      staffCall(u.isActive ? 'POST /admin/users/:id/deactivate' : 'POST /admin/users/:id/reactivate', {
                        params: { id },
                        body: { reason },
                      })
                    }
                  />
                  <ActionForm
                    title="Change tier"
                    submit="Change the tier"
                    extra={
                      <>
                        <SelectField label="New tier" name="tier" defaultValue={u.tier}>
                          {TIERS.map((t) => (
                            <option key={t} value={t}>
                              {t}
                            </option>
                          ))}
                        </SelectField>
                        <TextField label="Free of charge until (leave empty for a year)" type="date" name="until" />
                      </>
                    }
                    run={(reason, form) => {
                      // A complimentary membership: it never charges him and lapses at this date.
                      const until = String(form.get('until') ?? '');
                      return staffCall('POST /admin/users/:id/tier', {
                        params: { id },
                        body: {
                          reason,
                          tier: form.get('tier') as Tier,
                          ...(until ? { until: new Date(`${until}T00:00:00Z`).toISOString() } : {}),
                        },
                      });
                    }}
                  />
                  <ActionForm
                    title="New anonymous id"
                    submit="Regenerate the anonymous id"
                    run={(reason) => staffCall('POST /admin/users/:id/anonymous-id', { params: { id }, body: { reason } })}
                  />
                </>
              ) : null}
              {u.anonymousId ? (
                <ActionForm
                  title="Identity lookup"
                  submit="Show the email (audited)"
                  run={(reason) => staffCall('POST /admin/identity/lookup', { body: { anonymousId: u.anonymousId!, reason } })}
                  onDone={(r) => setEmail((r as { email: string }).email)}
                />
              ) : null}
            </div>
          </div>
        )}
      </QueryState>
    </>
  );
}

/** users/banned: the banned-email records by hash (never the address): reason, by whom, until, associated ids; lift. */
export function BannedScreen() {
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.bans(), () => staffCall('GET /admin/bans'));
  const lift = useStaffMutation((hash: string) => staffCall('DELETE /admin/bans/:hash', { params: { hash } }));
  return (
    <>
      <ScreenTitle>Banned emails</ScreenTitle>
      <QueryState
        q={q}
        what="bans"
        isEmpty={(d) => d.rows.length === 0}
        empty={{ title: 'No bans', body: 'Banned emails are listed here by their hash.' }}
      >
        {(d) => (
          <DataTable
            label="Bans"
            rows={d.rows}
            rowKey={(b) => b.hash}
            columns={[
              { head: 'Email hash', className: 'font-mono', cell: (b) => `${b.hash.slice(0, 12)}…` },
              { head: 'Reason', cell: (b) => b.reason },
              { head: 'Until', cell: (b) => (b.isPermanent ? 'permanent' : when(b.until)) },
              { head: 'Anonymous ids', className: 'font-mono', cell: (b) => b.associatedAnonymousIds.join(', ') || '—' },
              { head: 'Banned', cell: (b) => when(b.bannedAt) },
              {
                head: 'Actions',
                hideHead: true,
                cell: (b) =>
                  mayUse(me, 'users.ban') ? (
                    <Button
                      variant="secondary"
                      className="min-h-10 px-3 text-sm"
                      loading={lift.isPending && lift.variables === b.hash}
                      onClick={() => lift.mutate(b.hash)}
                    >
                      Lift
                    </Button>
                  ) : null,
              },
            ]}
          />
        )}
      </QueryState>
    </>
  );
}
