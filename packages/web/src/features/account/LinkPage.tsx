import { brandLabel } from '@fmk/core';
import type { ReactNode } from 'react';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { AlertIcon, CheckIcon } from '../../ui/icons.tsx';

/**
 * The frame of a page a mailed link opens: outside the app's shell (the person may be signed
 * out), the brand on top, one icon, one heading, and what to do next.
 */
export function LinkPage({ title, tone, children }: { title: string; tone?: 'good' | 'alert'; children: ReactNode }) {
  const [prefs] = useAppPreferences();
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white px-6 pt-8 pb-10">
      <p className="text-3xl font-black text-primary">{brandLabel(prefs.appMode)}</p>
      {tone ? (
        <span
          aria-hidden="true"
          className={`mt-8 flex size-14 items-center justify-center rounded-full ${
            tone === 'good' ? 'bg-emerald-50 text-emerald-700' : 'bg-primary-soft text-primary-strong'
          }`}
        >
          {tone === 'good' ? <CheckIcon width={28} height={28} /> : <AlertIcon width={28} height={28} />}
        </span>
      ) : null}
      <h1 className="mt-4 text-2xl font-bold text-ink">{title}</h1>
      <div className="mt-3 flex flex-col gap-4 text-base text-ink">{children}</div>
    </main>
  );
}
