import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminChart } from './AdminChart.tsx';
import { type AdminColumn, AdminTable } from './AdminTable.tsx';

type Row = { id: string; name: string; n: number };
const rows: Row[] = [
  { id: 'a', name: 'Bravo', n: 2 },
  { id: 'b', name: 'Alpha', n: 30 },
  { id: 'c', name: 'Charlie', n: 1 },
];
const columns: AdminColumn<Row>[] = [
  { head: 'Name', cell: (r) => r.name, sortValue: (r) => r.name },
  { head: 'Count', cell: (r) => r.n, sortValue: (r) => r.n },
  { head: 'Actions', hideHead: true, cell: (r) => <button type="button">Open {r.name}</button> },
];

const bodyNames = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent?.replace('Name: ', ''));

afterEach(cleanup);

describe('AdminTable', () => {
  it('is a captioned table with column headers, and sorts a column both ways on its header', () => {
    render(<AdminTable caption="People" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    const table = screen.getByRole('table', { name: 'People' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name↕', 'Count↕', 'Actions']);
    expect(bodyNames()).toEqual(['Bravo', 'Alpha', 'Charlie']);

    const count = screen.getByRole('button', { name: /Count/ });
    fireEvent.click(count);
    const sortedHeader = screen.getByRole('columnheader', { name: /Count/ });
    const first = sortedHeader.getAttribute('aria-sort');
    expect(['ascending', 'descending']).toContain(first);
    expect(bodyNames()).toEqual(first === 'ascending' ? ['Charlie', 'Bravo', 'Alpha'] : ['Alpha', 'Bravo', 'Charlie']);
    fireEvent.click(count);
    expect(sortedHeader.getAttribute('aria-sort')).toBe(first === 'ascending' ? 'descending' : 'ascending');
    expect(bodyNames()).toEqual(first === 'ascending' ? ['Alpha', 'Bravo', 'Charlie'] : ['Charlie', 'Bravo', 'Alpha']);
    // Each cell names its column for the card layout on a phone (hidden from screen readers, who have the headers).
    expect(within(table).getAllByText('Name:', { exact: false })[0]!.getAttribute('aria-hidden')).toBe('true');
  });

  it("reports a click on a column the server sorts, and keeps the rows in the server's order", () => {
    const onSortingChange = vi.fn();
    render(
      <AdminTable
        caption="People"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        sorting={{ sorting: [], onSortingChange }}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSortingChange).toHaveBeenCalledWith([{ id: 'Name', desc: false }]);
    expect(bodyNames()).toEqual(['Bravo', 'Alpha', 'Charlie']);
  });
});

describe('AdminChart', () => {
  it('describes the series in words and keeps the numbers in a table (the chart without a canvas)', () => {
    render(
      <AdminChart
        title="Sign-ups"
        days={['2026-11-01', '2026-11-02', '2026-11-03']}
        series={[{ label: 'Sign-ups', values: [4, 0, 7] }]}
      />,
    );
    const figure = screen.getByRole('figure', { name: 'Sign-ups' });
    expect(within(figure).getByText('11 in 3 days')).toBeTruthy();
    expect(figure.getAttribute('aria-describedby')).toBeTruthy();
    const description = document.getElementById(figure.getAttribute('aria-describedby')!)!;
    expect(description.textContent).toBe('Sign-ups, 2026-11-01 to 2026-11-03: Sign-ups 11 in all; at most 7 a day.');
    const table = within(figure).getByRole('table', { name: 'Sign-ups by day' });
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(cells).toEqual(['2026-11-014', '2026-11-020', '2026-11-037']);
  });
});
