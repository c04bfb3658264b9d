import type { ReactNode } from 'react';
import { CloudOffIcon } from './icons.tsx';

/**
 * A screen, or a part of one, that needs the network and has nothing saved to show:
 * said plainly, instead of an error or a spinner that would never end. It loads by itself when
 * the network is back.
 */
export function OfflineState({
  title = "You're offline",
  body = "This loads when you're back online.",
  action,
}: {
  title?: string;
  body?: string;
  action?: ReactNode;
}) {
  return (
    <section className="flex flex-col items-center gap-3 px-6 py-16 text-center" data-testid="offline-state">
      <div className="flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary-strong [&>svg]:size-8">
        <CloudOffIcon />
      </div>
      <h2 className="text-lg font-semibold text-ink">{title}</h2>
      <p className="max-w-xs text-base text-muted">{body}</p>
      {action ? <div className="mt-2">{action}</div> : null}
    </section>
  );
}
