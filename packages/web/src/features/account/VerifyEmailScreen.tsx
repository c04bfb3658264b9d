import { AccountMessages, type LinkError } from '@fmk/core';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { LinkPage } from './LinkPage.tsx';
import { confirmEmailOnce, linkToken, useRefreshMe, useResendVerification } from './queries.ts';

type State =
  | { status: 'working' }
  | { status: 'confirmed'; email: string; changed: boolean }
  | { status: 'failed'; code: LinkError | 'error'; message: string };

/** /verify#token=…: the page a confirmation link opens. It confirms the address at once. */
export function VerifyEmailScreen() {
  const location = useLocation();
  const token = linkToken(location);
  const { user } = useAuth();
  const refreshMe = useRefreshMe();
  const [state, setState] = useState<State>(() =>
    token ? { status: 'working' } : { status: 'failed', code: 'link_unknown', message: AccountMessages.linkUnknown },
  );

  useEffect(() => {
    if (!token) return;
    let live = true;
    confirmEmailOnce(token)
      .then((r) => {
        if (!live) return;
        setState({ status: 'confirmed', email: r.email, changed: r.changed });
        // The banner and settings read the signed-in record: it says confirmed now.
        refreshMe().catch(() => {});
      })
      .catch((e: unknown) => {
        if (!live) return;
        const code = e instanceof ApiError && ['link_unknown', 'link_expired', 'link_used'].includes(e.code) ? e.code : 'error';
        setState({
          status: 'failed',
          code: code as LinkError | 'error',
          message: errorMessage(e, 'Something went wrong. Please try again.'),
        });
      });
    return () => {
      live = false;
    };
  }, [token, refreshMe]);

  if (state.status === 'working') {
    return (
      <LinkPage title="Confirming your email">
        <Spinner label="Confirming" />
      </LinkPage>
    );
  }
  if (state.status === 'confirmed') {
    return (
      <LinkPage title={state.changed ? 'Email changed' : 'Email confirmed'} tone="good">
        <p>
          {state.changed ? 'Your account now uses ' : ''}
          <span className="font-semibold break-all">{state.email}</span>
          {state.changed ? '. Sign in with it from now on.' : ' is confirmed. Thanks!'}
        </p>
        <ButtonLink to={user ? '/settings' : '/auth'} block>
          {user ? 'Continue' : 'Sign in'}
        </ButtonLink>
      </LinkPage>
    );
  }
  return (
    <LinkPage title="This link didn't work" tone="alert">
      <p role="alert">{state.message}</p>
      {state.code === 'link_used' ? null : user ? (
        <ResendLink email={user.email} verified={user.emailVerified} />
      ) : (
        <p className="text-muted">Sign in to send yourself a new link.</p>
      )}
      <ButtonLink to={user ? '/settings' : '/auth'} variant={user && !user.emailVerified ? 'secondary' : 'primary'} block>
        {user ? 'Go to settings' : 'Sign in'}
      </ButtonLink>
    </LinkPage>
  );
}

function ResendLink({ email, verified }: { email: string; verified: boolean }) {
  const resend = useResendVerification();
  if (verified) return <p className="text-muted">{AccountMessages.alreadyVerified}</p>;
  if (resend.isSuccess) {
    return (
      <p role="status" className="text-muted">
        We sent a new link to <span className="font-semibold text-ink">{email}</span>.
      </p>
    );
  }
  return (
    <>
      {resend.isError ? (
        <p role="alert" className="text-sm font-medium text-primary-strong">
          {errorMessage(resend.error, 'Could not send the link. Please try again.')}
        </p>
      ) : null}
      <Button block loading={resend.isPending} onClick={() => resend.mutate()}>
        Send a new link
      </Button>
    </>
  );
}
