import type { ReactNode } from 'react';

/** An honest empty screen: what will be here and, where there is one, what to do now. */
export function EmptyState({ icon, title, body, action }: { icon: ReactNode; title: string; body?: string; action?: ReactNode }) {
  return (
    <section className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <div className="flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary-strong [&>svg]:size-8">
        {icon}
      </div>
      <h2 className="text-lg font-semibold text-ink">{title}</h2>
      {body ? <p className="max-w-xs text-base text-muted">{body}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </section>
  );
}
