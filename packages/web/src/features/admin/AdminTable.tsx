import {
  type ColumnDef,
  createSortedRowModel,
  type RowData,
  rowSortingFeature,
  type SortingState,
  sortFn_basic,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { type ReactNode, useMemo, useState } from 'react';

// The admin area's one table (TanStack Table): columns sorted here or by the server (paging is the list page's),
// and a real <table> with a caption and column headers. Under 480 px each row becomes a card
// whose cells carry their column's name, so a phone never scrolls sideways.

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { basic: sortFn_basic },
});
type Features = typeof features;

/** One column: its header, what each row shows, and (when sortable) the value it sorts by. */
export interface AdminColumn<T> {
  head: string;
  /** The header is read to screen readers only (an actions column). */
  hideHead?: boolean;
  /** Extra classes for its cells (font-mono for ids and codes, text-right for numbers). */
  className?: string;
  cell: (row: T) => ReactNode;
  /** Given, the column sorts by this value (on the loaded rows, or by the server with `sorting`). */
  sortValue?: (row: T) => string | number | null;
}

/** Sorting done by the server: the table shows the rows in the order given and reports clicks. */
export interface ServerSorting {
  sorting: SortingState;
  onSortingChange: (next: SortingState) => void;
}

const th = 'border-b border-line px-3 py-2 font-semibold text-muted';
const td =
  'border-b border-line px-3 py-2 align-top text-ink max-[479px]:block max-[479px]:border-0 max-[479px]:px-0 max-[479px]:py-1';

export function AdminTable<T extends RowData>({
  caption,
  captionHidden,
  columns,
  rows,
  rowKey,
  sorting: serverSorting,
}: {
  /** Names the table for everyone (screen readers announce it on entering the table). */
  caption: string;
  /** The caption stays for screen readers but is not drawn (a heading above already says it). */
  captionHidden?: boolean;
  columns: readonly AdminColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  sorting?: ServerSorting;
}) {
  const defs = useMemo<ColumnDef<Features, T>[]>(
    () =>
      columns.map((c) => ({
        id: c.head,
        header: c.head,
        accessorFn: (row: T) => c.sortValue?.(row) ?? null,
        enableSorting: Boolean(c.sortValue),
        sortFn: 'basic' as const,
        sortUndefined: 'last' as const,
      })),
    [columns],
  );
  const [localSorting, setLocalSorting] = useState<SortingState>([]);
  const sortingState = serverSorting?.sorting ?? localSorting;
  const table = useTable({
    features,
    columns: defs,
    data: rows as T[],
    getRowId: (row: T) => rowKey(row),
    state: { sorting: sortingState },
    onSortingChange: (u) => {
      const next = typeof u === 'function' ? u(sortingState) : u;
      if (serverSorting) serverSorting.onSortingChange(next);
      else setLocalSorting(next);
    },
    manualSorting: Boolean(serverSorting),
  });
  const byId = new Map(columns.map((c) => [c.head, c]));
  return (
    <div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable). */}
      <section aria-label={caption} tabIndex={0} className="overflow-x-auto rounded-xl border border-line max-[479px]:border-0">
        <table className="w-full min-w-[36rem] border-collapse text-left text-sm max-[479px]:block max-[479px]:min-w-0">
          <caption
            className={
              captionHidden ? 'sr-only' : 'px-3 py-2 text-left font-semibold text-ink max-[479px]:block max-[479px]:px-0'
            }
          >
            {caption}
          </caption>
          <thead className="max-[479px]:sr-only">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const col = byId.get(header.column.id)!;
                  const label = col.hideHead ? <span className="sr-only">{col.head}</span> : col.head;
                  if (!header.column.getCanSort())
                    return (
                      <th key={header.id} scope="col" className={th}>
                        {label}
                      </th>
                    );
                  const dir = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      className={th}
                      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
                    >
                      <button
                        type="button"
                        className="inline-flex min-h-10 items-center gap-1 font-semibold hover:text-ink"
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        {label}
                        <span aria-hidden="true">{dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : '↕'}</span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className="max-[479px]:flex max-[479px]:flex-col max-[479px]:gap-3">
            {table.getRowModel().rows.map((row) => (
              <tr
                key={row.id}
                className="max-[479px]:block max-[479px]:rounded-xl max-[479px]:border max-[479px]:border-line max-[479px]:p-3"
              >
                {row.getAllCells().map((cell) => {
                  const col = byId.get(cell.column.id)!;
                  return (
                    <td key={cell.id} className={col.className ? `${td} ${col.className}` : td}>
                      {col.hideHead ? null : (
                        <span aria-hidden="true" className="hidden font-sans font-semibold text-muted max-[479px]:inline">
                          {col.head}:{' '}
                        </span>
                      )}
                      {col.cell(row.original)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
