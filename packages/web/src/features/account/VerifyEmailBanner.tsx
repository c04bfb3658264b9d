import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { CloseIcon } from '../../ui/icons.tsx';
import { LOOK } from '../../ui/look.ts';
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
    <section aria-label="Confirm your email" className={LOOK.banner}>
      <div className={LOOK.bannerText}>
        <p className={LOOK.bannerTitle}>Confirm your email</p>
        {resend.isSuccess ? (
          <p role="status">Sent. Check your inbox (and spam) for the new link.</p>
        ) : (
          <p>
            Open the link we sent to <span className={LOOK.bannerEmail}>{user.email}</span>.
          </p>
        )}
        {resend.isError ? (
          <p role="alert" className="font-semibold">
            {errorMessage(resend.error, 'Could not send the link. Please try again.')}
          </p>
        ) : null}
      </div>
      {resend.isSuccess ? null : (
        <button type="button" onClick={() => resend.mutate()} disabled={resend.isPending} className={LOOK.bannerResend}>
          {resend.isPending ? 'Sending...' : 'Resend'}
        </button>
      )}
      <button type="button" onClick={hide} aria-label="Hide this reminder" className={LOOK.bannerHide}>
        <CloseIcon width={18} height={18} />
      </button>
    </section>
  );
}
