import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { call } from '../../api/call.ts';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { PasswordField } from '../../ui/TextField.tsx';
import { SecondFactor, StaffFrame, usePasswordStep } from './AdminLoginScreen.tsx';

/** An invite's link: the invitee confirms with his member account's password, then sets up his second factor. */
export function InviteAcceptScreen() {
  const { token = '' } = useParams();
  const invite = useQuery({
    queryKey: ['admin', 'invite', token],
    queryFn: () => call('GET /admin/invites/:token', { params: { token }, token: null }),
    retry: false,
  });
  const [password, setPassword] = useState('');
  const { error, busy, challenge, run } = usePasswordStep();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    await run(() => call('POST /admin/invites/accept', { body: { token, password }, token: null }));
  };

  if (invite.isPending)
    return (
      <StaffFrame subtitle="Team invite">
        <Spinner />
      </StaffFrame>
    );
  if (invite.isError)
    return (
      <StaffFrame subtitle="Team invite">
        <FormError boxed>{errorMessage(invite.error, 'This invite has expired or was revoked.')}</FormError>
      </StaffFrame>
    );
  return (
    <StaffFrame subtitle={`Join the team as ${invite.data.role.replace('_', ' ')}`}>
      {challenge ? (
        <SecondFactor challenge={challenge} />
      ) : (
        <form className="flex flex-col gap-4" onSubmit={(e) => void onSubmit(e)} noValidate>
          <p className="text-sm text-muted">
            Invite for <strong className="text-ink">{invite.data.email}</strong>, good until{' '}
            {new Date(invite.data.expiresAt).toLocaleString()}. Enter the password of your FMK account with this email.
          </p>
          <PasswordField
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <FormError boxed>{error}</FormError>
          <Button type="submit" block loading={busy}>
            Accept the invite
          </Button>
        </form>
      )}
    </StaffFrame>
  );
}
