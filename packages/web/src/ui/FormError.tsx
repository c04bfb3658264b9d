import type { ReactNode } from 'react';

/**
 * A form's or field's error, announced as it appears; nothing when there is none. `boxed`: the
 * whole form's refusal on a full-page form (sign in, reset), set off in a tinted box.
 */
export function FormError({ id, boxed = false, children }: { id?: string; boxed?: boolean; children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <p
      id={id}
      role="alert"
      className={`text-sm font-medium text-primary-strong${boxed ? ' rounded-xl bg-primary-soft px-4 py-3' : ''}`}
    >
      {children}
    </p>
  );
}
