import { TAGLINE } from '@fmk/core';
import { Spinner } from './Spinner.tsx';

/** Spec section 2: brand name, tagline, spinner and a message (default 'Loading...'). */
export function LoadingScreen({ brand, message = 'Loading...' }: { brand: string; message?: string }) {
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col items-center justify-center gap-4 bg-white px-6 text-center">
      <p className="text-5xl font-black tracking-tight text-primary">{brand}</p>
      <p className="text-base font-medium text-muted">{TAGLINE}</p>
      <Spinner label={message} />
      <p className="text-base text-ink" aria-hidden="true">
        {message}
      </p>
    </main>
  );
}
