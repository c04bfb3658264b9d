import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { CloseIcon } from '../../ui/icons.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useResendVerification } from './queries.ts';

const HIDDEN_KEY = 'fmk_verify_banner_hidden';

/**
 * Asks an unconfirmed account to open the link mailed at sign-up, with 'Resend' for a lost mail.
 * Hiding it lasts until the app is opened again: the reminder should come back, not nag.
 */
export function VerifyEmailBanner() {
  const { user } = useAuth();
  const resend = useResendVerification();
  const [hidden, setHidden] = useState(() => {
    try {
      return sessionStorage.getItem(HIDDEN_KEY) === '1';
    } catch {
      return false;
    }
  });
  if (!user || user.emailVerified || hidden) return null;

  const hide = () => {
    setHidden(true);
    try {
      sessionStorage.setItem(HIDDEN_KEY, '1');
    } catch {
      // Private mode: hidden for this screen only.
    }
  };

  return (
    <section
      aria-label="Confirm your email"
      className="mx-4 mt-3 flex items-start gap-3 rounded-2xl border border-primary/40 bg-primary-soft p-3"
    >
      <div className="flex flex-1 flex-col gap-1 text-sm text-ink">
        <p className="font-semibold">Confirm your email</p>
        {resend.isSuccess ? (
          <p role="status">Sent. Check your inbox (and spam) for the new link.</p>
        ) : (
          <p>
            Open the link we sent to <span className="font-semibold break-all">{user.email}</span>.
          </p>
        )}
        {resend.isError ? (
          <p role="alert" className="font-semibold">
            {errorMessage(resend.error, 'Could not send the link. Please try again.')}
          </p>
        ) : null}
      </div>
      {resend.isSuccess ? null : (
        <button
          type="button"
          onClick={() => resend.mutate()}
          disabled={resend.isPending}
          className="min-h-11 shrink-0 rounded-full border border-primary-strong bg-white px-4 text-sm font-semibold text-primary-strong hover:bg-white/70 disabled:opacity-50"
        >
          {resend.isPending ? 'Sending...' : 'Resend'}
        </button>
      )}
      <button
        type="button"
        onClick={hide}
        aria-label="Hide this reminder"
        className="-mt-1 -mr-1 flex size-11 shrink-0 items-center justify-center rounded-full text-muted hover:bg-white/70"
      >
        <CloseIcon width={18} height={18} />
      </button>
    </section>
  );
}
