import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronLeftIcon } from './icons.tsx';
import { LOOK } from './look.ts';

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
      <div className={LOOK.pageHeader}>
        {back ? (
          <Link to={back} aria-label="Back" className="-ml-2 rounded-full p-2 text-ink hover:bg-canvas">
            <ChevronLeftIcon />
          </Link>
        ) : null}
        <h1 className={LOOK.pageTitle}>{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}
