import { STAFF_ROLES, type StaffRole } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { EmailField, SelectField } from '../../ui/TextField.tsx';
import { DataTable, QueryState, ScreenTitle, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

export const roleLabel = (r: string) => r.replace('_', ' ');

/** team/members: the staff, their role, second factor and last sign-in; role changes and revoking (rank rule on the server). */
export function MembersScreen() {
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.members(), () => staffCall('GET /admin/team/members'));
  const [error, setError] = useState<string | null>(null);
  const patch = useStaffMutation((v: { userId: string; role: StaffRole }) =>
    staffCall('PATCH /admin/team/members/:userId', { params: { userId: v.userId }, body: { role: v.role } }),
  );
  const revoke = useStaffMutation((userId: string) => staffCall('DELETE /admin/team/members/:userId', { params: { userId } }));
  const onErr = { onError: (e: unknown) => setError(errorMessage(e, 'That did not work.')) };
  return (
    <>
      <ScreenTitle>Team</ScreenTitle>
      <FormError boxed>{error}</FormError>
      <QueryState q={q} what="the team" isEmpty={(d) => d.rows.length === 0} empty={{ title: 'No staff yet' }}>
        {(d) => (
          <DataTable
            label="Team members"
            rows={d.rows}
            rowKey={(m) => m.userId}
            columns={[
              { head: 'Email', cell: (m) => m.email },
              {
                head: 'Role',
                cell: (m) => (
                  <>
                    {mayUse(me, 'team_management.edit') && m.userId !== me?.userId && m.isActive ? (
                      <SelectField
                        label={`Role of ${m.email}`}
                        className="min-w-36 py-2"
                        value={m.role}
                        onChange={(e) => patch.mutate({ userId: m.userId, role: e.target.value as StaffRole }, onErr)}
                      >
                        {STAFF_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {roleLabel(r)}
                          </option>
                        ))}
                      </SelectField>
                    ) : (
                      roleLabel(m.role)
                    )}
                    {m.permissions ? <p className="text-xs text-muted">explicit: {m.permissions.join(', ') || 'none'}</p> : null}
                  </>
                ),
              },
              { head: 'Second factor', cell: (m) => (m.totpEnabled ? 'on' : 'not set up') },
              { head: 'Last sign-in', cell: (m) => when(m.lastLogin) },
              { head: 'Status', cell: (m) => (m.isActive ? 'active' : 'revoked') },
              {
                head: 'Actions',
                hideHead: true,
                cell: (m) =>
                  mayUse(me, 'team_management.revoke') && m.isActive && m.userId !== me?.userId ? (
                    <Button variant="secondary" className="min-h-10 px-3 text-sm" onClick={() => revoke.mutate(m.userId, onErr)}>
                      Revoke
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

/** team/invites: invite by email with a role (an expiring link is mailed), the list, revoking. */
export function InvitesScreen() {
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.invites(), () => staffCall('GET /admin/team/invites'));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('moderator');
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const invite = useStaffMutation(() => staffCall('POST /admin/team/invites', { body: { email: email.trim(), role } }));
  const revoke = useStaffMutation((id: string) => staffCall('DELETE /admin/team/invites/:id', { params: { id } }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    invite.mutate(undefined, {
      onSuccess: (r) => {
        setLink(r.link);
        setEmail('');
      },
      onError: (err) => setError(errorMessage(err, 'The invite did not go out.')),
    });
  };
  return (
    <>
      <ScreenTitle>Invites</ScreenTitle>
      {mayUse(me, 'team_management.invite') ? (
        <form
          aria-label="Invite"
          onSubmit={onSubmit}
          className="mb-4 grid gap-3 rounded-xl border border-line p-4 md:grid-cols-[1fr_12rem_auto] md:items-end"
        >
          <EmailField label="Email" value={email} onChange={(e) => setEmail(e.target.value)} />
          <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as StaffRole)}>
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {roleLabel(r)}
              </option>
            ))}
          </SelectField>
          <Button type="submit" loading={invite.isPending}>
            Send invite
          </Button>
          <div className="md:col-span-3">
            <FormError>{error}</FormError>
            {link ? (
              <p className="text-sm text-ink">
                Invite sent. Its link (also mailed):{' '}
                <span className="break-all font-mono" data-testid="invite-link">
                  {link}
                </span>
              </p>
            ) : null}
          </div>
        </form>
      ) : null}
      <QueryState
        q={q}
        what="invites"
        isEmpty={(d) => d.rows.length === 0}
        empty={{ title: 'No invites yet', body: 'Invite a team member by email.' }}
      >
        {(d) => (
          <DataTable
            label="Invites"
            rows={d.rows}
            rowKey={(i) => i.id}
            columns={[
              { head: 'Email', cell: (i) => i.email },
              { head: 'Role', cell: (i) => roleLabel(i.role) },
              { head: 'State', cell: (i) => i.state },
              { head: 'Expires', cell: (i) => when(i.expiresAt) },
              {
                head: 'Actions',
                hideHead: true,
                cell: (i) =>
                  i.state === 'pending' && mayUse(me, 'team_management.revoke') ? (
                    <Button variant="secondary" className="min-h-10 px-3 text-sm" onClick={() => revoke.mutate(i.id)}>
                      Revoke
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
