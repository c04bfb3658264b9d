import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useSafetyContactQuery, useSaveSafetyContact } from './meetupQueries.ts';

/**
 * His trusted contact (name, email) and safe word: the person meetup check-ins and the safe word
 * email. The server checks each field; its words are shown under the field they are about.
 */
export function SafetyContactForm() {
  const contact = useSafetyContactQuery();
  const saveContact = useSaveSafetyContact();
  const toast = useToast();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [safeWord, setSafeWord] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const saved = contact.data;
  useEffect(() => {
    if (!saved) return;
    setName(saved.name);
    setEmail(saved.email);
    setSafeWord(saved.safeWord ?? '');
  }, [saved]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setError(null);
    saveContact.mutate(
      { name, email, safeWord: safeWord.trim() ? safeWord : null },
      {
        onSuccess: () => toast.success('Trusted contact saved'),
        onError: (err) => {
          const fields = err instanceof ApiError ? err.fields : {};
          if (fields.name || fields.email || fields.safeWord) setErrors(fields);
          else setError(errorMessage(err, 'Could not save your contact. Please try again.'));
        },
      },
    );
  };

  return (
    <section aria-labelledby="trusted-contact" className="rounded-2xl border border-line bg-white px-4 py-3">
      <h2 id="trusted-contact" className="text-sm font-semibold text-ink">
        Trusted contact
      </h2>
      <p className="pb-3 text-sm text-muted">
        A friend we email about your meetups and when you use your safe word. They don't need FMK.
      </p>
      {contact.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading your contact" />
        </div>
      ) : (
        <form className="flex flex-col gap-3" onSubmit={onSubmit} noValidate aria-label="Trusted contact">
          <TextField
            label="Their name"
            value={name}
            autoComplete="off"
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            error={errors.name ?? null}
          />
          <TextField
            label="Their email"
            type="email"
            inputMode="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={errors.email ?? null}
          />
          <TextField
            label="Safe word (optional)"
            hint="A word you wouldn't say by chance. Nobody in the chat sees that it did anything."
            value={safeWord}
            autoComplete="off"
            maxLength={40}
            onChange={(e) => setSafeWord(e.target.value)}
            error={errors.safeWord ?? null}
          />
          <FormError>{error}</FormError>
          <Button type="submit" variant="secondary" block loading={saveContact.isPending}>
            {saved ? 'Save contact' : 'Add contact'}
          </Button>
        </form>
      )}
    </section>
  );
}
