import { type AdminChallenge, Messages } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/call.ts';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { EmailField, PasswordField, TextField } from '../../ui/TextField.tsx';
import { adminKeys } from './queries.ts';
import { setStaffSession } from './session.ts';

/** The page frame of the open staff pages (sign-in, invite). */
export function StaffFrame({ subtitle, children }: { subtitle: string; children: React.ReactNode }) {
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center bg-white px-6 py-10">
      <div className="mb-6 flex items-center gap-3">
        <span className="flex size-12 items-center justify-center rounded-2xl bg-ink text-white">
          <ShieldIcon />
        </span>
        <div>
          <h1 className="text-2xl font-bold text-ink">FMK Admin</h1>
          <p className="text-sm text-muted">{subtitle}</p>
        </div>
      </div>
      {children}
    </main>
  );
}

/**
 * The second factor step (shared by the sign-in and the invite): the authenticator's code, or a
 * recovery code; on first use it shows the secret to add to an authenticator, and afterwards the
 * recovery codes, once.
 */
export function SecondFactor({ challenge }: { challenge: AdminChallenge }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const s = await call('POST /admin/login/verify', {
        body: useRecovery
          ? { challenge: challenge.challenge, recoveryCode: code }
          : { challenge: challenge.challenge, code: code.trim() },
        token: null,
      });
      setStaffSession({ token: s.token, expiresAt: s.expiresAt });
      qc.setQueryData(adminKeys.me(s.token), s.me);
      if (s.recoveryCodes) setCodes(s.recoveryCodes);
      else navigate('/admin', { replace: true });
    } catch (err) {
      setError(errorMessage(err, Messages.loginFailed));
    } finally {
      setBusy(false);
    }
  };

  if (codes)
    return (
      <section aria-labelledby="codes-title" className="flex flex-col gap-4">
        <h2 id="codes-title" className="text-lg font-bold text-ink">
          Your recovery codes
        </h2>
        <p className="text-sm text-muted">
          Each works once if you lose your authenticator. Keep them somewhere safe: they are shown only now.
        </p>
        <ul className="grid grid-cols-2 gap-2 rounded-xl bg-canvas p-4 font-mono text-sm text-ink" data-testid="recovery-codes">
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <Button block onClick={() => navigate('/admin', { replace: true })}>
          I have saved them
        </Button>
      </section>
    );

  return (
    <form className="flex flex-col gap-4" onSubmit={(e) => void onSubmit(e)} noValidate>
      {challenge.enroll ? (
        <div className="rounded-xl bg-canvas p-4 text-sm text-ink">
          <p className="font-semibold">Set up your second factor</p>
          <p className="mt-1 text-muted">
            Add this key to an authenticator app (Google Authenticator, 1Password, Aegis…), then enter its 6-digit code.
          </p>
          <p className="mt-2 break-all font-mono" data-testid="totp-secret">
            {challenge.enroll.secret}
          </p>
          <a className="mt-2 inline-block font-semibold text-ink underline" href={challenge.enroll.uri}>
            Open in an authenticator app
          </a>
        </div>
      ) : null}
      <TextField
        label={useRecovery ? 'Recovery code' : 'Authenticator code'}
        inputMode={useRecovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        autoFocus
      />
      <FormError boxed>{error}</FormError>
      <Button type="submit" block loading={busy}>
        Verify
      </Button>
      {challenge.enroll ? null : (
        <Button type="button" variant="ghost" onClick={() => setUseRecovery((r) => !r)}>
          {useRecovery ? 'Use the authenticator code' : 'Use a recovery code'}
        </Button>
      )}
    </form>
  );
}

/**
 * The password step of a staff sign-in (by email, or accepting an invite): busy while it runs,
 * its refusal as text, then the challenge the second factor answers.
 */
export function usePasswordStep() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<AdminChallenge | null>(null);
  const run = async (start: () => Promise<AdminChallenge>) => {
    setError(null);
    setBusy(true);
    try {
      setChallenge(await start());
    } catch (err) {
      setError(errorMessage(err, Messages.loginFailed));
    } finally {
      setBusy(false);
    }
  };
  return { error, setError, busy, challenge, run };
}

/** Staff sign-in (spec sections 4, 5, 8): email and password, then the second factor. */
export function AdminLoginScreen() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, setError, busy, challenge, run } = usePasswordStep();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError('Enter your email address and password.');
      return;
    }
    await run(() => {
      // A failed sign-in leaves no staff session behind (spec section 4).
      setStaffSession(null);
      return call('POST /admin/login', { body: { email: email.trim(), password }, token: null });
    });
  };

  return (
    <StaffFrame subtitle={challenge ? 'Second factor' : 'Staff sign-in'}>
      {challenge ? (
        <SecondFactor challenge={challenge} />
      ) : (
        <form className="flex flex-col gap-4" onSubmit={(e) => void onSubmit(e)} noValidate>
          <EmailField autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <FormError boxed>{error}</FormError>
          <Button type="submit" block loading={busy}>
            Sign in
          </Button>
        </form>
      )}
    </StaffFrame>
  );
}
