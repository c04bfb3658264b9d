import { MIN_PASSWORD_LENGTH } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { call } from '../../api/call.ts';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { PasswordField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { NewPasswordFields, newPasswordErrors } from './ResetPasswordScreen.tsx';
import { refusedFields, useSheetForm } from './sheetForm.ts';

/** Settings' 'Change password': the current one, then the new one twice. Other devices are signed out. */
export function ChangePasswordSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const toast = useToast();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { errors, error, busy, close, submit } = useSheetForm(onClose, () => {
    setCurrent('');
    setPassword('');
    setRepeat('');
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const errs = newPasswordErrors(password, repeat);
    if (!current) errs.current = 'Enter your current password.';
    return submit(
      errs,
      async () => {
        await call('POST /auth/password/change', { body: { currentPassword: current, newPassword: password } });
        toast.success('Password changed', 'Your other devices are signed out.');
        close();
      },
      (err) =>
        refusedFields(err, { currentPassword: 'current', newPassword: 'password' }) ??
        errorMessage(err, 'Could not change the password. Please try again.'),
    );
  };

  return (
    <Sheet open={open} onClose={close} title="Change password">
      <form className="flex flex-col gap-4 pb-2" onSubmit={(e) => void onSubmit(e)} noValidate>
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={errors.current ?? null}
        />
        <NewPasswordFields
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters. Your other devices will be signed out.`}
          errors={errors}
        />
        <FormError>{error}</FormError>
        <Button type="submit" block loading={busy}>
          Save new password
        </Button>
      </form>
    </Sheet>
  );
}
