import { AccountMessages, MIN_PASSWORD_LENGTH } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { PasswordField } from '../../ui/TextField.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { LinkPage } from './LinkPage.tsx';
import { linkToken } from './queries.ts';

/** Checks a new password and its repeat before the server sees them. */
export function newPasswordErrors(password: string, repeat: string): Record<string, string> {
  const errs: Record<string, string> = {};
  if (!password) errs.password = 'Enter a new password.';
  else if (password.length < MIN_PASSWORD_LENGTH) errs.password = `Passwords must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password && !repeat) errs.repeat = 'Enter the new password again.';
  else if (password && repeat !== password) errs.repeat = "The two passwords don't match.";
  return errs;
}

/** The new password and its repeat, as the reset page and settings' 'Change password' ask them. */
export function NewPasswordFields(p: {
  password: string;
  repeat: string;
  onPassword: (value: string) => void;
  onRepeat: (value: string) => void;
  hint: string;
  /** newPasswordErrors' keys: password, repeat. */
  errors: Record<string, string>;
}) {
  return (
    <>
      <PasswordField
        label="New password"
        autoComplete="new-password"
        value={p.password}
        onChange={(e) => p.onPassword(e.target.value)}
        hint={p.hint}
        error={p.errors.password ?? null}
      />
      <PasswordField
        label="New password again"
        autoComplete="new-password"
        value={p.repeat}
        onChange={(e) => p.onRepeat(e.target.value)}
        error={p.errors.repeat ?? null}
      />
    </>
  );
}

type Failed = { code: string; message: string };

/** /reset-password#token=…: the page a reset link opens. A new password, then sign in with it. */
export function ResetPasswordScreen() {
  const token = linkToken(useLocation());
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState<Failed | null>(
    token ? null : { code: 'link_unknown', message: AccountMessages.linkUnknown },
  );
  const [doneFor, setDoneFor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = newPasswordErrors(password, repeat);
    setFieldErrors(errs);
    if (Object.keys(errs).length || !token) return;
    setBusy(true);
    try {
      const r = await call('POST /auth/password/reset', { body: { token, password }, token: null });
      setDoneFor(r.email);
    } catch (err) {
      if (err instanceof ApiError && err.fields.password) setFieldErrors({ password: err.fields.password });
      else
        setFailed({
          code: err instanceof ApiError ? err.code : 'error',
          message: errorMessage(err, 'Something went wrong. Please try again.'),
        });
    } finally {
      setBusy(false);
    }
  };

  // Every session of the account ended with the reset, this browser's too: sign in afresh.
  const toSignIn = async () => {
    if (user) await signOut();
    navigate('/auth?mode=signin');
  };

  if (doneFor) {
    return (
      <LinkPage title="Password changed" tone="good">
        <p>
          The password of <span className="font-semibold break-all">{doneFor}</span> is changed, and every device it was signed in
          on is signed out.
        </p>
        <Button block onClick={() => void toSignIn()}>
          Sign in
        </Button>
      </LinkPage>
    );
  }
  if (failed) {
    return (
      <LinkPage title="This link didn't work" tone="alert">
        <p role="alert">{failed.message}</p>
        {failed.code === 'link_used' ? null : <p className="text-muted">Reset links work once, for 30 minutes.</p>}
        <ButtonLink to="/auth?mode=forgot" block>
          Get a new link
        </ButtonLink>
      </LinkPage>
    );
  }
  return (
    <LinkPage title="Choose a new password">
      <form className="flex flex-col gap-4" onSubmit={(e) => void onSubmit(e)} noValidate>
        <NewPasswordFields
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          errors={fieldErrors}
        />
        <Button type="submit" block loading={busy}>
          Set new password
        </Button>
      </form>
    </LinkPage>
  );
}
