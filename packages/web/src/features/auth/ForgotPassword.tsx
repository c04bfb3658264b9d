import { AccountMessages, brandLabel } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ChevronLeftIcon } from '../../ui/icons.tsx';
import { EmailField, emailFieldError } from '../../ui/TextField.tsx';

/**
 * 'Forgot password?' (/auth?mode=forgot): asks for the address and mails a reset link. The
 * answer is the server's, the same whether or not the address has an account.
 */
export function ForgotPassword() {
  const [prefs] = useAppPreferences();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const value = email.trim();
    const invalid = emailFieldError(value, 'Enter your email address.');
    setFieldError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      const r = await call('POST /auth/password/forgot', { body: { email: value }, token: null });
      setSent(r.message);
    } catch (err) {
      if (err instanceof ApiError && err.fields.email) setFieldError(err.fields.email);
      else setError(errorMessage(err, AccountMessages.tooManyRequests));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white px-6 pt-4 pb-10">
      <Link
        to="/auth?mode=signin"
        className="inline-flex min-h-11 items-center gap-1 self-start text-sm font-semibold text-primary-strong"
      >
        <ChevronLeftIcon width={18} height={18} /> Back
      </Link>
      <p className="mt-4 text-3xl font-black text-primary">{brandLabel(prefs.appMode)}</p>
      <h1 className="mt-2 text-2xl font-bold text-ink">{sent ? 'Check your email' : 'Reset your password'}</h1>
      {sent ? (
        <div className="mt-4 flex flex-col gap-6">
          <p role="status" className="text-base text-ink">
            {sent}
          </p>
          <p className="text-sm text-muted">
            No mail? Check the spam folder, or make sure you typed the address you signed up with.
          </p>
          <ButtonLink to="/auth?mode=signin" block>
            Back to sign in
          </ButtonLink>
        </div>
      ) : (
        <form className="mt-4 flex flex-col gap-4" onSubmit={(e) => void onSubmit(e)} noValidate>
          <p className="text-base text-muted">
            Enter the email address of your account and we'll mail you a link to choose a new password.
          </p>
          <EmailField value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError} />
          <FormError boxed>{error}</FormError>
          <Button type="submit" block loading={busy}>
            Send reset link
          </Button>
        </form>
      )}
    </main>
  );
}
