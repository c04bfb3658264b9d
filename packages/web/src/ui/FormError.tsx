import type { ReactNode } from 'react';

/**
 * A form's or field's error, announced as it appears; nothing when there is none. `boxed`: the
 * whole form's refusal on a full-page form (sign in, forgot password), set off in a tinted box, in
 * ink: the darker red on the tint is only about 4.1:1, under WCAG's 4.5:1 for small text.
 */
export function FormError({ id, boxed = false, children }: { id?: string; boxed?: boolean; children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <p
      id={id}
      role="alert"
      className={
        boxed ? 'rounded-xl bg-primary-soft px-4 py-3 text-sm font-semibold text-ink' : 'text-sm font-medium text-primary-strong'
      }
    >
      {children}
    </p>
  );
}
