import { DELETE_CONFIRM_WORD } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useDeleteAccount } from './queries.ts';

const ERASED = [
  'your profile, photos and settings',
  'your matches, likes and choices',
  'your conversations: the men you wrote to lose them too',
  'your health and activity records',
  'your cruising sessions, check-ins and events',
];

/**
 * Settings' 'Delete account': what goes, then the password (an account that signs in with Google
 * only types DELETE instead: it has no password to give). After it, signed out on every device.
 */
export function DeleteAccountSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { signOut } = useAuth();
  const toast = useToast();
  const remove = useDeleteAccount();
  const [withGoogle, setWithGoogle] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setPassword('');
    setConfirm('');
    setFieldError(null);
    setError(null);
    onClose();
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setFieldError(null);
    if (!withGoogle && !password) return setFieldError('Enter your password to delete your account.');
    if (withGoogle && confirm.trim() !== DELETE_CONFIRM_WORD) return setFieldError(`Type ${DELETE_CONFIRM_WORD} to confirm.`);
    try {
      await remove.mutateAsync(withGoogle ? { confirm: confirm.trim() } : { password });
    } catch (err) {
      const fields = err instanceof ApiError ? err.fields : {};
      // The server knows which the account needs: an account without a password asks for the word.
      if (fields.confirm) {
        setWithGoogle(true);
        setFieldError(fields.confirm);
      } else if (fields.password || fields.currentPassword) setFieldError(fields.password ?? fields.currentPassword ?? null);
      else setError(errorMessage(err, 'Could not delete your account. Please try again.'));
      return;
    }
    await signOut();
    toast.success('Account deleted', 'Your account and your data were deleted. Take care.');
  };

  return (
    <Sheet open={open} onClose={close} title="Delete account">
      <form className="flex flex-col gap-4 pb-2" onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="flex flex-col gap-2 text-sm text-ink">
          <p className="font-semibold">This erases your account for good. It cannot be undone.</p>
          <ul className="list-disc pl-5">
            {ERASED.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p className="text-muted">
            You are signed out on every device. We keep only what the law asks of us (a ban, by a code that does not name you).
            Want a copy first? Use 'Download my data'.
          </p>
        </div>
        {withGoogle ? (
          <TextField
            label={`Type ${DELETE_CONFIRM_WORD} to confirm`}
            autoComplete="off"
            autoCapitalize="characters"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={fieldError}
          />
        ) : (
          <TextField
            label="Account password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={fieldError}
          />
        )}
        <button
          type="button"
          className="min-h-11 self-start text-sm font-semibold text-primary-strong underline"
          onClick={() => {
            setWithGoogle(!withGoogle);
            setFieldError(null);
          }}
        >
          {withGoogle ? 'I have a password' : 'I sign in with Google and have no password'}
        </button>
        <FormError>{error}</FormError>
        <Button type="submit" variant="danger" block loading={remove.isPending}>
          Delete my account
        </Button>
        <Button variant="secondary" block onClick={close}>
          Keep my account
        </Button>
      </form>
    </Sheet>
  );
}
