import {
  ADMIN_MODULES,
  MODULE_ACTIONS,
  outranks,
  READ_ONLY_MODULES,
  roleDefaults,
  STAFF_ROLES,
  type StaffMember,
} from '@fmk/core';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Pill } from '../../ui/Section.tsx';
import { SelectField } from '../../ui/TextField.tsx';
import { QueryState, ScreenTitle, TableWrap, tableClass, tdClass, thClass } from './parts.tsx';
import { type AdminMe, adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';
import { roleLabel } from './TeamScreens.tsx';

const moduleLabel = (m: string) => m.replace('_', ' ');
const WRITES = new Set(['create', 'edit', 'delete']);

/** The role defaults of spec section 6, module by module. */
function RoleMatrix() {
  const sets = Object.fromEntries(STAFF_ROLES.map((r) => [r, new Set<string>(roleDefaults(r))]));
  return (
    <TableWrap label="Permissions by role">
      <table className={tableClass}>
        <thead>
          <tr>
            <th className={thClass}>Module</th>
            {STAFF_ROLES.map((r) => (
              <th key={r} className={thClass}>
                {roleLabel(r)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ADMIN_MODULES.map((m) => (
            <tr key={m}>
              <th scope="row" className={`${tdClass} font-semibold`}>
                {moduleLabel(m)}
              </th>
              {STAFF_ROLES.map((r) => (
                <td key={r} className={tdClass}>
                  {MODULE_ACTIONS.filter((a) => sets[r]!.has(`${m}.${a}`)).join(', ') || '—'}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/**
 * One member's explicit permissions list (spec section 6: it replaces his role's defaults). Only
 * a higher rank edits it; the server holds the same rule, and read-only modules never write.
 */
function OverrideEditor({ member, me }: { member: StaffMember; me: AdminMe | undefined }) {
  const start = () => new Set<string>(member.permissions ?? roleDefaults(member.role));
  const [chosen, setChosen] = useState(start);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: start again whenever another member (or his saved list) is shown
  useEffect(() => {
    setChosen(start());
    setError(null);
  }, [member.userId, member.permissions?.join(','), member.role]);
  const save = useStaffMutation((permissions: string[] | null) =>
    staffCall('PATCH /admin/team/members/:userId', { params: { userId: member.userId }, body: { permissions } }),
  );
  const editable =
    mayUse(me, 'team_management.edit') &&
    !!me &&
    me.userId !== member.userId &&
    outranks(me.role, member.role) &&
    member.isActive;
  const readOnly = new Set<string>(READ_ONLY_MODULES[member.role]);
  const submit = (permissions: string[] | null) => {
    setError(null);
    setSaved(null);
    save.mutate(permissions, {
      onSuccess: () => setSaved(permissions ? 'Explicit permissions saved.' : 'Back to the role defaults.'),
      onError: (e) => setError(errorMessage(e, 'Not saved.')),
    });
  };
  const toggle = (p: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(p)) next.delete(p);
      else next.add(p);
      return next;
    });
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-ink">
        {member.email} · {roleLabel(member.role)} ·{' '}
        {member.permissions ? <Pill tone="warn">Explicit list</Pill> : <Pill>Role defaults</Pill>}
      </p>
      {!editable ? (
        <p className="text-sm text-muted">
          {me?.userId === member.userId
            ? 'You cannot change your own permissions.'
            : 'Only a higher rank with team edit rights can change this member’s permissions.'}
        </p>
      ) : null}
      <TableWrap label={`Permissions of ${member.email}`}>
        <table className={tableClass}>
          <thead>
            <tr>
              <th className={thClass}>Module</th>
              {MODULE_ACTIONS.map((a) => (
                <th key={a} className={`${thClass} text-xs`}>
                  {a.replace('_', ' ')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ADMIN_MODULES.map((m) => (
              <tr key={m}>
                <th scope="row" className={`${tdClass} font-semibold`}>
                  {moduleLabel(m)}
                  {readOnly.has(m) ? <span className="block text-xs font-normal text-muted">read-only</span> : null}
                </th>
                {MODULE_ACTIONS.map((a) => {
                  const p = `${m}.${a}`;
                  const blocked = readOnly.has(m) && WRITES.has(a);
                  return (
                    <td key={a} className={`${tdClass} text-center`}>
                      <input
                        type="checkbox"
                        className="size-5 accent-[#FF4458]"
                        aria-label={`${moduleLabel(m)} ${a.replace('_', ' ')}`}
                        checked={chosen.has(p) && !blocked}
                        disabled={!editable || blocked}
                        onChange={() => toggle(p)}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {editable ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button loading={save.isPending} onClick={() => submit([...chosen].sort())}>
            Save explicit permissions
          </Button>
          {member.permissions ? (
            <Button variant="secondary" disabled={save.isPending} onClick={() => submit(null)}>
              Use role defaults
            </Button>
          ) : null}
          <FormError>{error}</FormError>
          {saved ? (
            <p role="status" className="text-sm text-ink">
              {saved}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** team/permissions: the role defaults, and each member's explicit list (overrides) with its editor. */
export function PermissionsScreen() {
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.members(), () => staffCall('GET /admin/team/members'));
  const [pick, setPick] = useState<string>('');
  return (
    <>
      <ScreenTitle>Permissions</ScreenTitle>
      <section aria-labelledby="role-defaults" className="mb-8">
        <h2 id="role-defaults" className="mb-2 text-lg font-bold text-ink">
          Role defaults
        </h2>
        <RoleMatrix />
      </section>
      <section aria-labelledby="overrides">
        <h2 id="overrides" className="mb-2 text-lg font-bold text-ink">
          Overrides per member
        </h2>
        <p className="mb-3 text-sm text-muted">
          An explicit list replaces the member’s role defaults. Read-only modules never allow create, edit or delete.
        </p>
        <QueryState
          q={q}
          what="the team"
          isEmpty={(d) => d.rows.filter((m) => m.isActive).length === 0}
          empty={{ title: 'No staff yet', body: 'Invite a team member first.' }}
        >
          {(d) => {
            const active = d.rows.filter((m) => m.isActive);
            const member = active.find((m) => m.userId === pick) ?? null;
            return (
              <div className="flex flex-col gap-4">
                <SelectField label="Member" className="max-w-md" value={pick} onChange={(e) => setPick(e.target.value)}>
                  <option value="">Choose a member</option>
                  {active.map((m) => (
                    <option key={m.userId} value={m.userId}>
                      {m.email} ({roleLabel(m.role)}
                      {m.permissions ? ', explicit list' : ''})
                    </option>
                  ))}
                </SelectField>
                {member ? <OverrideEditor member={member} me={me} /> : null}
              </div>
            );
          }}
        </QueryState>
      </section>
    </>
  );
}
