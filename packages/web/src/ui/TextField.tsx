import { type InputHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import { FormError } from './FormError.tsx';

const fieldClass =
  'block w-full rounded-xl border border-line bg-white px-4 py-3 text-base text-ink placeholder:text-muted focus:border-primary-strong focus:outline-3 focus:outline-offset-0 focus:outline-primary/30 aria-[invalid=true]:border-primary-strong';

interface FieldChrome {
  label: string;
  hint?: string;
  error?: string | null;
}

function Chrome({ id, label, hint, error, children }: FieldChrome & { id: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <FormError id={`${id}-error`}>{error}</FormError>
    </div>
  );
}

function describedBy(id: string, hint?: string, error?: string | null): string | undefined {
  if (error) return `${id}-error`;
  if (hint) return `${id}-hint`;
  return undefined;
}

export function TextField({
  label,
  hint,
  error,
  id: given,
  className,
  ...rest
}: FieldChrome & InputHTMLAttributes<HTMLInputElement>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Chrome id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        className={`${fieldClass}${className ? ` ${className}` : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...rest}
      />
    </Chrome>
  );
}

export function TextArea({
  label,
  hint,
  error,
  id: given,
  className,
  ...rest
}: FieldChrome & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Chrome id={id} label={label} hint={hint} error={error}>
      <textarea
        id={id}
        className={`${fieldClass} min-h-28 resize-y${className ? ` ${className}` : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...rest}
      />
    </Chrome>
  );
}

export function SelectField({
  label,
  hint,
  error,
  id: given,
  className,
  children,
  ...rest
}: FieldChrome & React.SelectHTMLAttributes<HTMLSelectElement>) {
  const auto = useId();
  const id = given ?? auto;
  return (
    <Chrome id={id} label={label} hint={hint} error={error}>
      <select
        id={id}
        className={`${fieldClass}${className ? ` ${className}` : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...rest}
      >
        {children}
      </select>
    </Chrome>
  );
}
