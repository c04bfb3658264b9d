import type { AdminSpot, AdminSpotsPage } from '@fmk/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, resetAdmin, serveAdmin, startAdmin as start } from './admin-test-kit.tsx';

const spot = (id: string, status: AdminSpot['status'], extra: Partial<AdminSpot> = {}): AdminSpot => ({
  id,
  name: `Spot ${id}`,
  kind: 'park',
  description: 'By the lake',
  lat: 48.85,
  lng: 2.35,
  status,
  proposedBy: 'u9',
  reviewedBy: null,
  reviewedAt: null,
  reviewNote: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...extra,
});

const page = (rows: AdminSpot[], over: Partial<AdminSpotsPage> = {}): AdminSpotsPage => ({
  rows,
  total: rows.length,
  page: 1,
  pageSize: 50,
  counts: { pending: 2, approved: 1, rejected: 1 },
  map: { tileUrl: null, tileAttribution: null },
  ...over,
});

/** The server as the browser meets it: /admin/me for the role, /admin/locations for the list, every call recorded. */
function serve(role: string, list: (url: URL) => Response) {
  return serveAdmin(role, (method, url) => {
    if (url.pathname.endsWith('/admin/locations')) return list(url);
    if (method === 'POST' || method === 'PATCH') return json(spot('a', 'approved'));
    return undefined;
  });
}

afterEach(resetAdmin);

describe('the locations screens', () => {
  it('shows the counts and every spot on the overview, and filters by status and name', async () => {
    const calls = serve('admin', () =>
      json(
        page([
          spot('a', 'pending'),
          spot('b', 'rejected', { reviewNote: 'Private land', reviewedAt: '2026-11-21T10:00:00.000Z' }),
        ]),
      ),
    );
    start('/admin/locations');
    expect(await screen.findByRole('heading', { name: 'Locations', level: 1 })).toBeTruthy();
    const counts = await screen.findByRole('region', { name: 'Spots by status' });
    expect(within(counts).getByRole('link', { name: /2\s*Waiting for review/ })).toBeTruthy();
    const cards = await screen.findAllByTestId('spot');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['1Spot a', '2Spot b']);
    expect(within(cards[1]!).getByText(/Private land/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'rejected' } });
    fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'sauna' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.searchParams.get('status') === 'rejected' && c.url.searchParams.get('q') === 'sauna')).toBe(
        true,
      ),
    );
  });

  it('approves a pending spot, and rejects one only with a note', async () => {
    const calls = serve('admin', () => json(page([spot('a', 'pending'), spot('b', 'pending')])));
    start('/admin/locations/pending');
    const [first, second] = await screen.findAllByTestId('spot');
    fireEvent.click(within(first!).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.url.pathname).toBe('/api/v1/admin/locations/a/approve'));
    fireEvent.click(within(second!).getByRole('button', { name: 'Reject' }));
    const form = within(second!).getByRole('form', { name: 'Reject Spot b' });
    expect(within(form).getByLabelText('Why is it rejected?')).toHaveProperty('required', true);
    fireEvent.change(within(form).getByLabelText('Why is it rejected?'), { target: { value: 'Private garden' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Reject' }));
    await waitFor(() => {
      const reject = calls.find((c) => c.url.pathname.endsWith('/b/reject'));
      expect(reject?.body).toEqual({ note: 'Private garden' });
    });
  });

  it('gives a moderator the list without the actions', async () => {
    serve('moderator', () => json(page([spot('a', 'pending')])));
    start('/admin/locations/pending');
    const [card] = await screen.findAllByTestId('spot');
    expect(within(card!).queryByRole('button')).toBeNull();
  });

  it('says so when nothing waits, and offers to try again when the list fails', async () => {
    serve('admin', () => json(page([], { counts: { pending: 0, approved: 0, rejected: 0 } })));
    start('/admin/locations/pending');
    expect(await screen.findByText('Nothing waiting for review')).toBeTruthy();
    cleanup();
    serve('admin', () => json({ error: 'x', message: 'Server down' }, 500));
    start('/admin/locations/approved');
    expect(await screen.findByText('Could not load spots')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeTruthy();
  });
});
