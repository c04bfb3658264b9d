import { SCREENING_RESULTS, type Screening } from '@fmk/core';
import { type FormEvent, useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { ChipInput } from '../../ui/ChipInput.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { SelectField, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { localNow, useCreateScreeningMutation, useUpdateScreeningMutation } from './queries.ts';

export const COMMON_TESTS = ['HIV', 'Syphilis', 'Gonorrhoea', 'Chlamydia', 'Hepatitis B', 'Hepatitis C', 'Herpes'];
type Result = (typeof SCREENING_RESULTS)[number];
export const RESULT_LABEL: Record<Result, string> = {
  negative: 'Negative',
  positive: 'Positive',
  pending: 'Pending',
  inconclusive: 'Inconclusive',
};

const DEFAULT_TESTS = ['HIV', 'Syphilis', 'Gonorrhoea', 'Chlamydia'];

/**
 * Record an STI screening (its date, the tests taken and each one's result), or edit one when
 * `screening` is given: a result that came back later is the usual reason.
 */
export function ScreeningSheet({
  open,
  screening = null,
  onClose,
}: {
  open: boolean;
  screening?: Screening | null;
  onClose: () => void;
}) {
  const today = localNow().date;
  const [date, setDate] = useState(today);
  const [tests, setTests] = useState<string[]>(DEFAULT_TESTS);
  const [results, setResults] = useState<Record<string, Result>>({});
  const [error, setError] = useState<string | null>(null);
  const create = useCreateScreeningMutation();
  const update = useUpdateScreeningMutation();
  const toast = useToast();

  useEffect(() => {
    if (!open) return;
    setDate(screening?.date ?? localNow().date);
    setTests(screening?.tests ?? DEFAULT_TESTS);
    setResults(screening?.results ?? {});
    setError(null);
  }, [open, screening]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!date) {
      setError('Enter the date of the test.');
      return;
    }
    if (date > today) {
      setError('Choose a date that is not in the future.');
      return;
    }
    const chosen = Object.fromEntries(tests.map((t) => [t, results[t] ?? 'pending']));
    try {
      const body = { date, tests, results: chosen };
      if (screening) await update.mutateAsync({ id: screening.id, body });
      else await create.mutateAsync(body);
      toast.success(screening ? 'Screening updated' : 'Screening recorded');
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'We could not save this screening. Please try again.'));
    }
  };

  return (
    <Sheet open={open} onClose={onClose} title={screening ? 'Edit screening' : 'Record a screening'}>
      <form onSubmit={submit} className="flex flex-col gap-4 pb-2" noValidate>
        <TextField
          label="Date of the test"
          type="date"
          value={date}
          max={today}
          required
          onChange={(e) => setDate(e.target.value)}
        />
        <ChipInput label="Tests" values={tests} onChange={setTests} suggestions={COMMON_TESTS} maxLength={60} />
        {tests.length ? (
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-1 text-sm font-semibold text-ink">Results</legend>
            {tests.map((t) => (
              <SelectField
                key={t}
                label={`${t} result`}
                value={results[t] ?? 'pending'}
                onChange={(e) => setResults((r) => ({ ...r, [t]: e.target.value as Result }))}
              >
                {SCREENING_RESULTS.map((r) => (
                  <option key={r} value={r}>
                    {RESULT_LABEL[r]}
                  </option>
                ))}
              </SelectField>
            ))}
          </fieldset>
        ) : null}
        <FormError>{error}</FormError>
        <Button type="submit" block loading={create.isPending || update.isPending} disabled={tests.length === 0}>
          Save screening
        </Button>
      </form>
    </Sheet>
  );
}
