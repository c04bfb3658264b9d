import { type ReactNode, useId } from 'react';

/** Field errors by path ('nowProfile.position'), from the draft's own checks or the server. */
export type Errors = Record<string, string>;

/** A titled section of the profile editor. */
export function Card({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4 rounded-3xl border border-line bg-white p-4">
      <div>
        <h2 id={id} className="text-lg font-bold text-ink">
          {title}
        </h2>
        {lead ? <p className="text-sm text-muted">{lead}</p> : null}
      </div>
      {children}
    </section>
  );
}
