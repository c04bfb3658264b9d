import { brandLabel, Messages, MIN_PASSWORD_LENGTH, REDIRECT_RESULT_ATTEMPTS, REDIRECT_RESULT_DELAY_MS } from '@fmk/core';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ChevronLeftIcon } from '../../ui/icons.tsx';
import { LoadingScreen } from '../../ui/LoadingScreen.tsx';
import { EmailField, emailFieldError, PasswordField } from '../../ui/TextField.tsx';
import { useAuth } from './AuthProvider.tsx';
import { ForgotPassword } from './ForgotPassword.tsx';
import { useConfigQuery } from './queries.ts';
import { withRetries } from './session.ts';

type Mode = 'signin' | 'signup';
const TABS: readonly [Mode, string][] = [
  ['signin', 'Sign in'],
  ['signup', 'Sign up'],
];

/** Redirect-result codes are single use: remember which ones this page load has claimed. */
const claimedCodes = new Set<string>();

function failureMessage(e: unknown, mode: Mode): string {
  if (e instanceof ApiError) {
    // 403 email_banned carries 'Your email is permanently banned. Reason: …' (spec section 8).
    if (e.status === 429) return e.message || Messages.tooManyAttempts;
    if (e.message) return e.message;
  }
  return mode === 'signup' ? 'Sign up failed. Please try again.' : Messages.loginFailed;
}

export function AuthScreen() {
  const [prefs] = useAppPreferences();
  const [params, setParams] = useSearchParams();
  const mode: Mode = params.get('mode') === 'signup' ? 'signup' : 'signin';
  const { signIn, signUp, applyResult } = useAuth();
  const config = useConfigQuery();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(params.get('error'));
  const [busy, setBusy] = useState(false);
  const [redirecting, setRedirecting] = useState(() => params.has('result'));
  const titleId = useId();
  const code = params.get('result');
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Back from Google: read the result up to 3 times, 1 s apart (spec section 4).
  useEffect(() => {
    if (!code || claimedCodes.has(code)) return;
    claimedCodes.add(code);
    setRedirecting(true);
    withRetries(
      () => call('POST /auth/redirect-result', { body: { code }, token: null }),
      REDIRECT_RESULT_ATTEMPTS,
      REDIRECT_RESULT_DELAY_MS,
    )
      .then((r) => applyResult(r))
      .catch((e: unknown) => {
        if (!mounted.current) return;
        setError(errorMessage(e, Messages.loginFailed));
        setRedirecting(false);
        setParams({ mode: 'signin' }, { replace: true });
      });
  }, [code, applyResult, setParams]);

  if (params.get('mode') === 'forgot') return <ForgotPassword />;
  if (redirecting) return <LoadingScreen brand={brandLabel(prefs.appMode)} message="Signing you in..." />;

  const switchMode = (m: Mode) => {
    setError(null);
    setFieldErrors({});
    setParams({ mode: m }, { replace: true });
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const errs: Record<string, string> = {};
    const emailError = emailFieldError(email, 'Enter your email address.');
    if (emailError) errs.email = emailError;
    if (!password) errs.password = mode === 'signup' ? 'Enter a password.' : 'Enter your password.';
    else if (mode === 'signup' && password.length < MIN_PASSWORD_LENGTH)
      errs.password = `Passwords must be at least ${MIN_PASSWORD_LENGTH} characters.`;
    setFieldErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      if (mode === 'signup') await signUp(email.trim(), password);
      else await signIn(email.trim(), password);
      // The guard takes it from here: /onboarding or /grid.
    } catch (err) {
      if (!mounted.current) return;
      if (err instanceof ApiError && Object.keys(err.fields).length) setFieldErrors(err.fields);
      setError(failureMessage(err, mode));
    } finally {
      if (mounted.current) setBusy(false);
    }
  };

  const brand = brandLabel(prefs.appMode);
  const tabClass = (on: boolean) =>
    `flex-1 min-h-11 rounded-full text-base font-semibold ${on ? 'bg-white text-ink shadow' : 'text-muted hover:text-ink'}`;

  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white px-6 pt-4 pb-10">
      <Link to="/" className="inline-flex min-h-11 items-center gap-1 self-start text-sm font-semibold text-primary-strong">
        <ChevronLeftIcon width={18} height={18} /> Back
      </Link>
      <p className="mt-4 text-3xl font-black text-primary">{brand}</p>
      <h1 id={titleId} className="mt-2 text-2xl font-bold text-ink">
        {mode === 'signup' ? 'Create your account' : 'Welcome back'}
      </h1>

      <div role="tablist" aria-label="Sign in or sign up" className="mt-6 flex gap-1 rounded-full bg-canvas p-1">
        {TABS.map(([m, label]) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`tab-${m}`}
            aria-selected={mode === m}
            aria-controls="auth-panel"
            className={tabClass(mode === m)}
            onClick={() => switchMode(m)}
          >
            {label}
          </button>
        ))}
      </div>

      <form
        id="auth-panel"
        role="tabpanel"
        aria-labelledby={mode === 'signup' ? 'tab-signup' : 'tab-signin'}
        className="mt-6 flex flex-col gap-4"
        onSubmit={(e) => void onSubmit(e)}
        noValidate
      >
        <EmailField value={email} onChange={(e) => setEmail(e.target.value)} error={fieldErrors.email ?? null} />
        <PasswordField
          label="Password"
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={mode === 'signup' ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined}
          error={fieldErrors.password ?? null}
        />
        {mode === 'signin' ? (
          <Link
            to="/auth?mode=forgot"
            className="-mt-2 inline-flex min-h-11 items-center self-end text-sm font-semibold text-primary-strong"
          >
            Forgot password?
          </Link>
        ) : null}
        <FormError boxed>{error}</FormError>
        <Button type="submit" block loading={busy}>
          {mode === 'signup' ? 'Sign up' : 'Sign in'}
        </Button>
      </form>

      {config.data?.googleEnabled ? (
        <>
          <div className="my-6 flex items-center gap-3 text-sm text-muted" aria-hidden="true">
            <span className="h-px flex-1 bg-line" /> or <span className="h-px flex-1 bg-line" />
          </div>
          <Button variant="secondary" block onClick={() => window.location.assign('/api/v1/auth/google/start')}>
            <GoogleMark /> Continue with Google
          </Button>
        </>
      ) : null}
      <p className="mt-8 text-center text-sm text-muted">By continuing you confirm you are 18 or older.</p>
    </main>
  );
}

function GoogleMark() {
  return (
    <svg width="20" height="20" viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.6 13.2l7.9 6.1C12.4 13.6 17.7 9.5 24 9.5z"
      />
      <path fill="#4285F4" d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 7l7.4 5.7c4.3-4 6.9-9.9 6.9-17.2z" />
      <path
        fill="#FBBC05"
        d="M10.5 28.7A14.5 14.5 0 0 1 9.5 24c0-1.6.3-3.2.8-4.7l-7.9-6.1A24 24 0 0 0 0 24c0 3.9.9 7.5 2.6 10.8l7.9-6.1z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.2-8.5 2.2-6.3 0-11.6-4.1-13.5-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}
