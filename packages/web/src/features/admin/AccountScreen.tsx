import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ScreenTitle } from './parts.tsx';
import { useAdminMe, useStaffMutation } from './queries.ts';
import { staffCall } from './session.ts';

/** settings: the staff member's own account and second factor. */
export function AccountScreen() {
  const me = useAdminMe().data!;
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const renew = useStaffMutation(() => staffCall('POST /admin/me/recovery-codes'));
  return (
    <>
      <ScreenTitle>My account</ScreenTitle>
      <dl className="grid max-w-md grid-cols-[9rem_minmax(0,1fr)] gap-y-2 text-sm text-ink">
        <dt className="text-muted">Email</dt>
        <dd className="break-all">{me.email}</dd>
        <dt className="text-muted">Role</dt>
        <dd>{me.role.replace('_', ' ')}</dd>
        <dt className="text-muted">Permissions</dt>
        <dd>{me.permissions ? me.permissions.join(', ') || 'none' : 'the role’s defaults'}</dd>
        <dt className="text-muted">Second factor</dt>
        <dd>{me.totpEnabled ? 'on (authenticator app)' : 'not set up'}</dd>
        <dt className="text-muted">Recovery codes left</dt>
        <dd>{codes ? codes.length : me.recoveryCodesLeft}</dd>
      </dl>
      <div className="mt-4 flex max-w-md flex-col gap-3">
        <Button
          variant="secondary"
          loading={renew.isPending}
          onClick={() =>
            renew.mutate(undefined, {
              onSuccess: (r) => setCodes(r.recoveryCodes),
              onError: (e) => setError(errorMessage(e, 'That did not work.')),
            })
          }
        >
          New recovery codes
        </Button>
        <FormError>{error}</FormError>
        {codes ? (
          <ul className="grid grid-cols-2 gap-2 rounded-xl bg-canvas p-4 font-mono text-sm text-ink">
            {codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </>
  );
}
