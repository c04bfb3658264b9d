import { SCREENING_RESULTS } from '@fmk/core';
import { type FormEvent, useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { ChipInput } from '../../ui/ChipInput.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { SelectField, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { localNow, useCreateScreeningMutation } from './queries.ts';

export const COMMON_TESTS = ['HIV', 'Syphilis', 'Gonorrhoea', 'Chlamydia', 'Hepatitis B', 'Hepatitis C', 'Herpes'];
type Result = (typeof SCREENING_RESULTS)[number];
export const RESULT_LABEL: Record<Result, string> = {
  negative: 'Negative',
  positive: 'Positive',
  pending: 'Pending',
  inconclusive: 'Inconclusive',
};

/** Record an STI screening: its date, the tests taken and each one's result. */
export function ScreeningSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const today = localNow().date;
  const [date, setDate] = useState(today);
  const [tests, setTests] = useState<string[]>(['HIV', 'Syphilis', 'Gonorrhoea', 'Chlamydia']);
  const [results, setResults] = useState<Record<string, Result>>({});
  const [error, setError] = useState<string | null>(null);
  const create = useCreateScreeningMutation();
  const toast = useToast();

  useEffect(() => {
    if (!open) return;
    setDate(localNow().date);
    setTests(['HIV', 'Syphilis', 'Gonorrhoea', 'Chlamydia']);
    setResults({});
    setError(null);
  }, [open]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const chosen = Object.fromEntries(tests.map((t) => [t, results[t] ?? 'pending']));
    try {
      await create.mutateAsync({ date, tests, results: chosen });
      toast.success('Screening recorded');
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'We could not save this screening. Please try again.'));
    }
  };

  return (
    <Sheet open={open} onClose={onClose} title="Record a screening">
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
        {error ? (
          <p role="alert" className="text-sm font-medium text-primary-strong">
            {error}
          </p>
        ) : null}
        <Button type="submit" block loading={create.isPending} disabled={tests.length === 0}>
          Save screening
        </Button>
      </form>
    </Sheet>
  );
}
