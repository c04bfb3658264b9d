import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { ShieldIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';

// The admin screens' shared pieces: a heading, the loading / empty / error states, a pager.

export function ScreenTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold text-ink">{children}</h1>
      {actions}
    </div>
  );
}

/** Loading, error (with Try again) or the data; `isEmpty` shows the empty state instead. */
export function QueryState<T>({
  q,
  what,
  isEmpty,
  empty,
  children,
}: {
  q: UseQueryResult<T, unknown>;
  what: string;
  isEmpty?: (d: T) => boolean;
  empty?: { title: string; body?: string };
  children: (d: T) => ReactNode;
}) {
  if (q.isPending)
    return (
      <div className="flex justify-center py-12">
        <Spinner label={`Loading ${what}`} />
      </div>
    );
  if (q.isError)
    return (
      <LoadError
        title={`Could not load ${what}`}
        body={errorMessage(q.error, 'Check your connection and try again.')}
        onRetry={() => q.refetch()}
        retrying={q.isFetching}
      />
    );
  if (isEmpty?.(q.data) && empty) return <EmptyState icon={<ShieldIcon />} title={empty.title} body={empty.body} />;
  return <>{children(q.data)}</>;
}

export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-muted">
      <span>
        {total} in all · page {page} of {pages}
      </span>
      <span className="flex gap-2">
        <Button variant="secondary" className="min-h-10 px-4 text-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" className="min-h-10 px-4 text-sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </span>
    </nav>
  );
}

export const tableClass = 'w-full min-w-[36rem] border-collapse text-left text-sm';
export const thClass = 'border-b border-line px-3 py-2 font-semibold text-muted';
export const tdClass = 'border-b border-line px-3 py-2 align-top text-ink';

/** A table's scrolling region; `relative` keeps what is positioned inside it (a screen-reader-only header) in it, not widening the page. */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable).
    <section aria-label={label} tabIndex={0} className="relative overflow-x-auto rounded-xl border border-line">
      {children}
    </section>
  );
}

/** One column of a DataTable: its header and what each row shows in it. */
export interface Column<T> {
  head: string;
  /** The header is read to screen readers only (an actions column). */
  hideHead?: boolean;
  /** Extra classes for its cells (font-mono for ids and codes). */
  className?: string;
  cell: (row: T) => ReactNode;
}

/**
 * A list of rows as the admin area shows every list: a scrollable, keyboard-reachable table with
 * one header row and one row per item, so the screens differ only in their columns.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
}: {
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
}) {
  return (
    <TableWrap label={label}>
      <table className={tableClass}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.head} className={thClass}>
                {c.hideHead ? <span className="sr-only">{c.head}</span> : c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.head} className={c.className ? `${tdClass} ${c.className}` : tdClass}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
