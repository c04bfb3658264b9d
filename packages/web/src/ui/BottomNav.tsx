import type { ReactNode } from 'react';
import { NavLink } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
  /** A small badge (e.g. unread count) or a dot when true. */
  badge?: string | boolean;
}

/** The app's tab bar. NavLink sets aria-current="page" on the active tab. */
export function BottomNav({ items }: { items: readonly NavItem[] }) {
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-line bg-white pb-[env(safe-area-inset-bottom)]"
    >
      <ul className="mx-auto flex w-full max-w-md">
        {items.map((item) => (
          <li key={item.to} className="flex-1">
            <NavLink
              to={item.to}
              className={({ isActive }) =>
                `relative flex min-h-14 flex-col items-center justify-center gap-0.5 text-xs font-medium ${
                  isActive ? 'text-primary-strong' : 'text-muted hover:text-ink'
                }`
              }
            >
              <span className="relative">
                {item.icon}
                {item.badge === true ? (
                  <span className="absolute -top-0.5 -right-0.5 size-2.5 rounded-full bg-primary-strong" aria-hidden="true" />
                ) : item.badge ? (
                  <span
                    aria-hidden="true"
                    className="absolute -top-1.5 -right-3 min-w-5 rounded-full bg-primary-strong px-1.5 text-center text-[11px] leading-5 font-bold text-white ring-2 ring-white"
                  >
                    {item.badge}
                  </span>
                ) : null}
              </span>
              <span>{item.label}</span>
              {typeof item.badge === 'string' ? <span className="sr-only">{`, ${item.badge} new`}</span> : null}
              {item.badge === true ? <span className="sr-only">, needs attention</span> : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
