import { useState } from 'react';
import { ApiError } from '../../api/client.ts';

type FieldErrors = Record<string, string>;

/**
 * The refusal's field errors under the form's names (`names`: the API's field → the form's), or
 * null when it names none of them.
 */
export function refusedFields(err: unknown, names: Record<string, string>): FieldErrors | null {
  const fields = err instanceof ApiError ? err.fields : {};
  const out: FieldErrors = {};
  for (const [api, form] of Object.entries(names)) if (fields[api]) out[form] = fields[api];
  return Object.keys(out).length ? out : null;
}

/**
 * A settings sheet's form: its field errors, the form's own error and the busy state. `submit`
 * shows the checks' errors, or sends; a refusal goes where `refused` says (field errors, or the
 * form's message). `close` forgets what was typed (`clear`) and every error.
 */
export function useSheetForm(onClose: () => void, clear: () => void) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    clear();
    setErrors({});
    setError(null);
    onClose();
  };

  const submit = async (checked: FieldErrors, send: () => Promise<void>, refused: (err: unknown) => FieldErrors | string) => {
    setError(null);
    setErrors(checked);
    if (Object.keys(checked).length) return;
    setBusy(true);
    try {
      await send();
    } catch (err) {
      const r = refused(err);
      if (typeof r === 'string') setError(r);
      else setErrors(r);
    } finally {
      setBusy(false);
    }
  };

  return { errors, error, busy, close, submit };
}
