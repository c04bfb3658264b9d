import { MIN_PASSWORD_LENGTH } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { newPasswordErrors } from './ResetPasswordScreen.tsx';

/** Settings' 'Change password': the current one, then the new one twice. Other devices are signed out. */
export function ChangePasswordSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const toast = useToast();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setCurrent('');
    setPassword('');
    setRepeat('');
    setErrors({});
    setError(null);
    onClose();
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const errs = newPasswordErrors(password, repeat);
    if (!current) errs.current = 'Enter your current password.';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      await call('POST /auth/password/change', { body: { currentPassword: current, newPassword: password } });
      toast.success('Password changed', 'Your other devices are signed out.');
      close();
    } catch (err) {
      const fields = err instanceof ApiError ? err.fields : {};
      if (fields.currentPassword || fields.newPassword) {
        setErrors({
          ...(fields.currentPassword ? { current: fields.currentPassword } : {}),
          ...(fields.newPassword ? { password: fields.newPassword } : {}),
        });
      } else setError(errorMessage(err, 'Could not change the password. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Sheet open={open} onClose={close} title="Change password">
      <form className="flex flex-col gap-4 pb-2" onSubmit={(e) => void onSubmit(e)} noValidate>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={errors.current ?? null}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters. Your other devices will be signed out.`}
          error={errors.password ?? null}
        />
        <TextField
          label="New password again"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          error={errors.repeat ?? null}
        />
        <FormError>{error}</FormError>
        <Button type="submit" block loading={busy}>
          Save new password
        </Button>
      </form>
    </Sheet>
  );
}
