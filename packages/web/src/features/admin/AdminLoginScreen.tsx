import { Messages } from '@fmk/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { EmailField, PasswordField } from '../../ui/TextField.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { type AdminMe, adminKeys } from './queries.ts';

/** Staff sign-in: a normal sign-in, kept only if the account is active staff (spec sections 4, 8). */
export function AdminLoginScreen() {
  const { applyResult } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!email.trim() || !password) {
      setError('Enter your email address and password.');
      return;
    }
    setBusy(true);
    try {
      const result = await call('POST /auth/login', {
        body: { email: email.trim(), password },
        token: null,
      });
      let admin: AdminMe;
      try {
        admin = await call('GET /admin/me', { token: result.token });
      } catch (err) {
        // Not staff: end the session just created and say why.
        await call('POST /auth/logout', { token: result.token }).catch(() => undefined);
        setError(
          err instanceof ApiError && err.status === 403
            ? err.message || 'User is not an admin'
            : errorMessage(err, Messages.loginFailed),
        );
        return;
      }
      applyResult(result);
      queryClient.setQueryData(adminKeys.me(result.user.uid), admin);
      navigate('/admin/dashboard', { replace: true });
    } catch (err) {
      setError(errorMessage(err, Messages.loginFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center bg-white px-6 py-10">
      <div className="mb-6 flex items-center gap-3">
        <span className="flex size-12 items-center justify-center rounded-2xl bg-ink text-white">
          <ShieldIcon />
        </span>
        <div>
          <h1 className="text-2xl font-bold text-ink">FMK Admin</h1>
          <p className="text-sm text-muted">Staff sign-in</p>
        </div>
      </div>
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
    </main>
  );
}
