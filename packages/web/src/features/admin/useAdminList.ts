import type { UseQueryResult } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useStaffQuery } from './queries.ts';

// The state every admin list keeps: its filters, the words typed but not yet searched, and the page.
// The server searches, filters and pages; this only decides what to ask it for.

/** A page of rows, as every admin list route answers. */
export interface ListPage<R = unknown> {
  rows: R[];
  total: number;
  page: number;
  pageSize: number;
}

/** A list's filters by name; '' (and, for a select or a tab, 'all') means "no filter". */
export type Filters = Record<string, string>;

/** What goes to the server: the filters that narrow (a value that does not is left out) and the page. */
export type ListQuery<F extends Filters> = { [K in keyof F]?: Exclude<F[K], '' | 'all'> } & { page: number };

export interface ListOptions<F extends Filters, D> {
  /** The filters as the screen opens (the page is 1). */
  initial: F;
  /** The React Query key of one page of the list. */
  key: (query: ListQuery<F>) => readonly unknown[];
  fetch: (query: ListQuery<F>) => Promise<D>;
  /** The fields typed into, sent when the search is submitted; the others (selects, tabs, dates) apply at once. Default: q. */
  typed?: readonly (keyof F & string)[];
  /** A filter shown as tabs: it does not count as narrowing the search (the empty state names it instead). */
  tab?: keyof F & string;
}

export interface AdminList<F extends Filters, D> {
  filter: F;
  query: ListQuery<F>;
  q: UseQueryResult<D, unknown>;
  /** Changes filters and goes back to page 1. */
  set: (patch: Partial<F>) => void;
  setPage: (page: number) => void;
  /** A field's value and change handler: the draft for a typed field, the filter itself for the rest. */
  field: (name: keyof F & string) => { value: string; onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void };
  /** Sends what was typed (trimmed), from page 1. */
  submit: (e: FormEvent) => void;
  /** Whether a filter other than the tab is set: an empty page then means "nothing matches". */
  narrowed: boolean;
}

function queryOf<F extends Filters>(filter: F, typed: readonly string[], page: number): ListQuery<F> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(filter)) {
    if (v === '' || (v === 'all' && !typed.includes(k))) continue;
    out[k] = v;
  }
  out.page = page;
  return out as ListQuery<F>;
}

export function useAdminList<F extends Filters, D extends ListPage>({
  initial,
  key,
  fetch,
  typed = 'q' in initial ? ['q'] : [],
  tab,
}: ListOptions<F, D>): AdminList<F, D> {
  const [state, setState] = useState({ filter: initial, page: 1 });
  const [draft, setDraft] = useState<F>(initial);
  const query = queryOf(state.filter, typed, state.page);
  const q = useStaffQuery(key(query), () => fetch(query));
  const set = (patch: Partial<F>) => setState((s) => ({ filter: { ...s.filter, ...patch }, page: 1 }));
  return {
    filter: state.filter,
    query,
    q,
    set,
    setPage: (page) => setState((s) => ({ ...s, page })),
    field: (name) =>
      typed.includes(name)
        ? { value: draft[name] ?? '', onChange: (e) => setDraft((d) => ({ ...d, [name]: e.target.value })) }
        : { value: state.filter[name] ?? '', onChange: (e) => set({ [name]: e.target.value } as Partial<F>) },
    submit: (e) => {
      e.preventDefault();
      set(Object.fromEntries(typed.map((k) => [k, (draft[k] ?? '').trim()])) as Partial<F>);
    },
    narrowed: Object.keys(initial).some((k) => k !== tab && state.filter[k] !== initial[k]),
  };
}
