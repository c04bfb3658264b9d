import { type FormEvent, useState } from 'react';
import { call } from '../../api/call.ts';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { EmailField, emailFieldError, PasswordField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { refusedFields, useSheetForm } from './sheetForm.ts';

/**
 * Settings' 'Change email': the new address and the password. The server mails a link to the
 * new address; the account keeps its address until that link is opened.
 */
export function ChangeEmailSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { updateUser } = useAuth();
  const toast = useToast();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, error, busy, close, submit } = useSheetForm(onClose, () => {
    setEmail('');
    setPassword('');
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    const errs: Record<string, string> = {};
    const emailError = emailFieldError(value, 'Enter the new email address.');
    if (emailError) errs.email = emailError;
    if (!password) errs.password = 'Enter your password.';
    return submit(
      errs,
      async () => {
        const me = await call('POST /auth/email/change', { body: { email: value, password } });
        updateUser(me);
        toast.success('Check your new inbox', `Open the link we sent to ${me.pendingEmail ?? value} to finish.`);
        close();
      },
      (err) =>
        refusedFields(err, { email: 'email', password: 'password' }) ??
        (err instanceof ApiError && err.code === 'wrong_password'
          ? { password: err.message }
          : errorMessage(err, 'Could not change the email. Please try again.')),
    );
  };

  return (
    <Sheet open={open} onClose={close} title="Change email">
      <form className="flex flex-col gap-4 pb-2" onSubmit={(e) => void onSubmit(e)} noValidate>
        <EmailField
          label="New email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          hint="We'll mail a link there. Your address changes when you open it."
          error={errors.email ?? null}
        />
        <PasswordField
          label="Your password"
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
