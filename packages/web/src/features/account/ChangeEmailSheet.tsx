import { type FormEvent, useState } from 'react';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';

/**
 * Settings' 'Change email': the new address and the password. The server mails a link to the
 * new address; the account keeps its address until that link is opened.
 */
export function ChangeEmailSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { updateUser } = useAuth();
  const toast = useToast();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setEmail('');
    setPassword('');
    setErrors({});
    setError(null);
    onClose();
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const value = email.trim();
    const errs: Record<string, string> = {};
    if (!value) errs.email = 'Enter the new email address.';
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) errs.email = 'Enter a valid email address.';
    if (!password) errs.password = 'Enter your password.';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      const me = await call('POST /auth/email/change', { body: { email: value, password } });
      updateUser(me);
      toast.success('Check your new inbox', `Open the link we sent to ${me.pendingEmail ?? value} to finish.`);
      close();
    } catch (err) {
      const fields = err instanceof ApiError ? err.fields : {};
      if (fields.email || fields.password) {
        setErrors({
          ...(fields.email ? { email: fields.email } : {}),
          ...(fields.password ? { password: fields.password } : {}),
        });
      } else if (err instanceof ApiError && err.code === 'wrong_password') setErrors({ password: err.message });
      else setError(errorMessage(err, 'Could not change the email. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Sheet open={open} onClose={close} title="Change email">
      <form className="flex flex-col gap-4 pb-2" onSubmit={(e) => void onSubmit(e)} noValidate>
        <TextField
          label="New email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          hint="We'll mail a link there. Your address changes when you open it."
          error={errors.email ?? null}
        />
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password ?? null}
        />
        <FormError>{error}</FormError>
        <Button type="submit" block loading={busy}>
          Send link
        </Button>
      </form>
    </Sheet>
  );
}
