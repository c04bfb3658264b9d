import { Messages } from '@fmk/core';
import type { ReactNode } from 'react';
import { Button } from './Button.tsx';
import { FormError } from './FormError.tsx';
import { AlertIcon } from './icons.tsx';

/** The error layout shared by the app's error screen and by failed sections inside a screen. */
export function ErrorState({
  title = Messages.somethingWentWrong,
  body = Messages.errorBody,
  detail,
  actions,
}: {
  title?: string;
  body?: string;
  detail?: string | null;
  actions?: ReactNode;
}) {
  return (
    <section className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <div className="flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary-strong [&>svg]:size-8">
        <AlertIcon />
      </div>
      <h1 className="text-xl font-bold text-ink">{title}</h1>
      <p className="max-w-xs text-base text-muted">{body}</p>
      <FormError>{detail}</FormError>
      {actions ? <div className="mt-3 flex w-full max-w-xs flex-col gap-3">{actions}</div> : null}
    </section>
  );
}

/** What a failed load says unless the caller knows better. */
export const CHECK_CONNECTION = 'Check your connection and try again.';

/** A screen or section that failed to load, with "Try again" (which asks again). */
export function LoadError({
  title,
  body = CHECK_CONNECTION,
  onRetry,
  retrying,
  variant,
}: {
  title: string;
  body?: string;
  onRetry: () => unknown;
  /** Shows the button busy while the new attempt runs. */
  retrying?: boolean;
  variant?: 'primary' | 'secondary';
}) {
  return (
    <ErrorState
      title={title}
      body={body}
      actions={
        <Button variant={variant} onClick={() => void onRetry()} loading={retrying}>
          Try again
        </Button>
      }
    />
  );
}
