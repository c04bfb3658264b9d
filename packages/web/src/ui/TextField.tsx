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

/** The control's own attributes every field shares: its id (given or generated), look and error wiring. */
function useControl(given: string | undefined, hint: string | undefined, error: string | null | undefined, className: string) {
  const auto = useId();
  const id = given ?? auto;
  return {
    id,
    className: className ? `${fieldClass} ${className}` : fieldClass,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, hint, error),
  } as const;
}

export function TextField({ label, hint, error, id, className, ...rest }: FieldChrome & InputHTMLAttributes<HTMLInputElement>) {
  const control = useControl(id, hint, error, className ?? '');
  return (
    <Chrome id={control.id} label={label} hint={hint} error={error}>
      <input {...control} {...rest} />
    </Chrome>
  );
}

type FieldProps = Omit<FieldChrome, 'label'> & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with an email address as typed (`empty` when there is none), or null. */
export function emailFieldError(value: string, empty: string): string | null {
  const v = value.trim();
  if (!v) return empty;
  return EMAIL_SHAPE.test(v) ? null : 'Enter a valid email address.';
}

/** An email address field: the email keyboard and autofill. */
export function EmailField({ label = 'Email', ...rest }: FieldProps & { label?: string }) {
  return <TextField label={label} type="email" autoComplete="email" inputMode="email" {...rest} />;
}

/** A password field; `autoComplete` says which (current-password or new-password) to password managers. */
export function PasswordField(props: FieldProps & { label: string; autoComplete: 'current-password' | 'new-password' }) {
  return <TextField type="password" {...props} />;
}

export function TextArea({
  label,
  hint,
  error,
  id,
  className,
  ...rest
}: FieldChrome & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const control = useControl(id, hint, error, `min-h-28 resize-y${className ? ` ${className}` : ''}`);
  return (
    <Chrome id={control.id} label={label} hint={hint} error={error}>
      <textarea {...control} {...rest} />
    </Chrome>
  );
}

export function SelectField({
  label,
  hint,
  error,
  id,
  className,
  children,
  ...rest
}: FieldChrome & React.SelectHTMLAttributes<HTMLSelectElement>) {
  const control = useControl(id, hint, error, className ?? '');
  return (
    <Chrome id={control.id} label={label} hint={hint} error={error}>
      <select {...control} {...rest}>
        {children}
      </select>
    </Chrome>
  );
}
