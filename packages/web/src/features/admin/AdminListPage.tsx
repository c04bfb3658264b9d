import type { ReactNode } from 'react';
import { Button } from '../../ui/Button.tsx';
import { SelectField } from '../../ui/TextField.tsx';
import { Pager, QueryState, ScreenTitle } from './parts.tsx';
import type { AdminList, Filters, ListPage } from './useAdminList.ts';

// The admin area's list screen: a title, what sits above the list (tabs, counts), the search form,
// then the server's page of rows with its loading, empty ("nothing yet" or "nothing matches") and
// error states and the pager. Each screen gives only its fields and how a row looks.

type Empty = { title: string; body?: string };

export function AdminListPage<F extends Filters, D extends ListPage>({
  list,
  title,
  actions,
  top,
  search,
  what,
  empty,
  noMatch,
  after,
  children,
}: {
  list: AdminList<F, D>;
  title: ReactNode;
  /** Buttons beside the title (an export). */
  actions?: ReactNode;
  /** Between the title and the search: tabs, counts, a note. */
  top?: ReactNode;
  /** The search form (a ListSearch), and whatever goes right under it. */
  search?: ReactNode;
  /** What the list holds, for "Loading …" and "Could not load …". */
  what: string;
  /** The state of an empty list. */
  empty: Empty;
  /** The state of an empty list while a filter (other than the tab) is set; `empty` when absent. */
  noMatch?: Empty;
  /** After the list (a sheet it opens). */
  after?: ReactNode;
  /** The page's rows, as the screen shows them. */
  children: (d: D) => ReactNode;
}) {
  return (
    <>
      <ScreenTitle actions={actions}>{title}</ScreenTitle>
      {top}
      {search}
      <QueryState q={list.q} what={what} isEmpty={(d) => d.rows.length === 0} empty={list.narrowed && noMatch ? noMatch : empty}>
        {(d) => (
          <>
            {children(d)}
            <Pager page={d.page} pageSize={d.pageSize} total={d.total} onPage={list.setPage} />
          </>
        )}
      </QueryState>
      {after}
    </>
  );
}

/** A list's search form: the fields (typed ones are sent on submit), the submit button, then `after` (more fields). */
export function ListSearch<F extends Filters, D>({
  list,
  label,
  grid,
  button = 'Search',
  variant,
  children,
  after,
}: {
  list: AdminList<F, D>;
  /** The form's accessible name. */
  label: string;
  /** Its columns from md up (a Tailwind grid-cols class). */
  grid: string;
  button?: string;
  variant?: 'primary' | 'secondary';
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <form aria-label={label} onSubmit={list.submit} className={`mb-4 grid gap-3 md:items-end ${grid}`}>
      {children}
      <Button type="submit" variant={variant}>
        {button}
      </Button>
      {after}
    </form>
  );
}

/** A select filter bound to a list: "any" first (value '' unless `anyValue`), then each option by its name. */
export function FilterSelect<F extends Filters, D, O extends string>({
  list,
  name,
  label,
  any,
  anyValue = '',
  options,
  names,
}: {
  list: AdminList<F, D>;
  name: keyof F & string;
  label: string;
  any: string;
  anyValue?: string;
  options: readonly O[];
  names?: Partial<Record<O, string>>;
}) {
  return (
    <SelectField label={label} {...list.field(name)}>
      <option value={anyValue}>{any}</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {names?.[o] ?? o}
        </option>
      ))}
    </SelectField>
  );
}

/** A filter shown as tabs (a status): picking one goes back to page 1. */
export function StatusTabs<S extends string>({
  label,
  options,
  value,
  onChange,
  names,
}: {
  label: string;
  options: readonly S[];
  value: S;
  onChange: (s: S) => void;
  names?: Partial<Record<S, string>>;
}) {
  return (
    <div role="tablist" aria-label={label} className="mb-3 flex flex-wrap gap-2">
      {options.map((s) => (
        <button
          key={s}
          role="tab"
          type="button"
          aria-selected={value === s}
          onClick={() => onChange(s)}
          className={`rounded-full px-4 py-2 text-sm font-semibold ${value === s ? 'bg-ink text-white' : 'bg-canvas text-ink'}`}
        >
          {names?.[s] ?? s.replace('_', ' ')}
        </button>
      ))}
    </div>
  );
}
