import type { ReactNode } from 'react';

/** A form's or field's error, announced as it appears; nothing when there is none. */
export function FormError({ id, children }: { id?: string; children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <p id={id} role="alert" className="text-sm font-medium text-primary-strong">
      {children}
    </p>
  );
}
