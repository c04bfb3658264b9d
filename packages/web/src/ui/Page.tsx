import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronLeftIcon } from './icons.tsx';

/** A screen inside the signed-in shell: a title and, for sub-screens, a way back. */
export function Page({
  title,
  back,
  actions,
  children,
}: {
  title: string;
  back?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col">
      <div className="flex items-center gap-2 px-4 pt-4 pb-2">
        {back ? (
          <Link to={back} aria-label="Back" className="-ml-2 rounded-full p-2 text-ink hover:bg-canvas">
            <ChevronLeftIcon />
          </Link>
        ) : null}
        <h1 className="flex-1 text-2xl font-bold text-ink">{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
