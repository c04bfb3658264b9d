import { type AdminSpot, type AdminSpotsPage, SPOT_KINDS, type SpotStatus } from '@fmk/core';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, NavLink, useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { AdminListPage, FilterSelect, ListSearch } from './AdminListPage.tsx';
import { when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation } from './queries.ts';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

// Leaflet loads with the map, only on these screens.
const SpotsMap = lazy(async () => ({ default: (await import('./SpotsMap.tsx')).SpotsMap }));

type Tab = 'overview' | 'pending' | 'approved';
const TITLES: Record<Tab, string> = { overview: 'Locations', pending: 'Pending locations', approved: 'Approved locations' };
const EMPTY: Record<Tab, { title: string; body: string }> = {
  overview: { title: 'No spots match', body: 'Spots members propose on the cruise screen appear here.' },
  pending: { title: 'Nothing waiting for review', body: 'Spots members propose wait here until staff approve or reject them.' },
  approved: { title: 'No approved spots match', body: 'Approved spots are the ones members see on the cruise map.' },
};

/**
 * locations, locations/pending, locations/approved: the cruising spots members propose. The
 * overview has the counts and every spot with a status filter; the two queues fix the status.
 * Each has a name search, pages of 50 and a map of the page's spots; staff with the permission
 * approve, correct and reject (with a note) — the server audits each.
 */
export function LocationsScreen() {
  const { status: raw } = useParams();
  const tab: Tab = raw === 'pending' || raw === 'approved' ? raw : 'overview';
  // One filter per tab: switching tabs starts at page 1 with no search.
  return <LocationsList key={tab} tab={tab} />;
}

function LocationsList({ tab }: { tab: Tab }) {
  const list = useAdminList({
    // A queue fixes the status (no control shows it); the overview filters by it.
    initial: { q: '', status: (tab === 'overview' ? '' : tab) as SpotStatus | '' },
    key: adminKeys.locations,
    fetch: (query) => staffCall('GET /admin/locations', { query }),
  });
  const select = useCallback((s: AdminSpot) => {
    const card = document.getElementById(`spot-${s.id}`);
    card?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    card?.focus({ preventScroll: true });
  }, []);
  const counts = list.q.data?.counts;
  return (
    <AdminListPage
      list={list}
      title={TITLES[tab]}
      top={
        <>
          <Tabs counts={counts} />
          {tab === 'overview' && counts ? <Counts counts={counts} /> : null}
        </>
      }
      search={
        <ListSearch
          list={list}
          label="Search spots"
          grid={tab === 'overview' ? 'md:grid-cols-[1fr_11rem_auto]' : 'md:grid-cols-[1fr_auto]'}
          variant="secondary"
        >
          <TextField label="Search by name" placeholder="Park, sauna…" {...list.field('q')} />
          {tab === 'overview' ? (
            <FilterSelect
              list={list}
              name="status"
              label="Status"
              any="All"
              options={['pending', 'approved', 'rejected']}
              names={{ pending: 'Pending', approved: 'Approved', rejected: 'Rejected' }}
            />
          ) : null}
        </ListSearch>
      }
      what="spots"
      empty={EMPTY[tab]}
    >
      {(d) => (
        <div className="flex flex-col gap-4">
          <Suspense
            fallback={
              <div className="flex h-64 items-center justify-center rounded-2xl border border-line bg-canvas sm:h-80">
                <Spinner label="Loading the map" />
              </div>
            }
          >
            <SpotsMap spots={d.rows} tileUrl={d.map.tileUrl} tileAttribution={d.map.tileAttribution} onSelect={select} />
          </Suspense>
          <ol className="grid gap-3 md:grid-cols-2" aria-label="Spots">
            {d.rows.map((s, i) => (
              <SpotCard key={s.id} spot={s} n={i + 1} />
            ))}
          </ol>
        </div>
      )}
    </AdminListPage>
  );
}

function Tabs({ counts }: { counts: AdminSpotsPage['counts'] | undefined }) {
  const tabs: [string, string, number | undefined][] = [
    ['/admin/locations', 'Overview', undefined],
    ['/admin/locations/pending', 'Pending', counts?.pending],
    ['/admin/locations/approved', 'Approved', counts?.approved],
  ];
  return (
    <nav aria-label="Location lists" className="mb-4 flex flex-wrap gap-2">
      {tabs.map(([to, label, n]) => (
        <NavLink
          key={to}
          to={to}
          end
          className={({ isActive }) =>
            `rounded-full px-4 py-2 text-sm font-semibold ${isActive ? 'bg-ink text-white' : 'bg-canvas text-ink'}`
          }
        >
          {label}
          {n === undefined ? null : ` (${n})`}
        </NavLink>
      ))}
    </nav>
  );
}

function Counts({ counts }: { counts: AdminSpotsPage['counts'] }) {
  const tiles: [string, number, string | null][] = [
    ['Waiting for review', counts.pending, '/admin/locations/pending'],
    ['Approved', counts.approved, '/admin/locations/approved'],
    ['Rejected', counts.rejected, null],
  ];
  return (
    <section aria-label="Spots by status" className="mb-4 grid grid-cols-3 gap-2 sm:gap-3">
      {tiles.map(([label, n, to]) => {
        const body = (
          <>
            <span className="block text-2xl font-bold text-ink">{n}</span>
            <span className="block text-xs text-muted sm:text-sm">{label}</span>
          </>
        );
        return to ? (
          <Link key={label} to={to} className="rounded-xl border border-line bg-white p-3 hover:bg-canvas">
            {body}
          </Link>
        ) : (
          <p key={label} className="rounded-xl border border-line bg-white p-3">
            {body}
          </p>
        );
      })}
    </section>
  );
}

const STATUS_PILL: Record<SpotStatus, string> = {
  pending: 'bg-primary-strong text-white',
  approved: 'bg-ink text-white',
  rejected: 'bg-canvas text-muted',
};

/** One spot: what it is, where, its review; and what the staff member may do with it. */
function SpotCard({ spot: s, n }: { spot: AdminSpot; n: number }) {
  const me = useAdminMe().data;
  const [mode, setMode] = useState<'idle' | 'edit' | 'reject'>('idle');
  const [error, setError] = useState<string | null>(null);
  const approve = useStaffMutation(() => staffCall('POST /admin/locations/:id/approve', { params: { id: s.id }, body: {} }));
  const mayApprove = mayUse(me, 'locations.approve');
  const mayEdit = mayUse(me, 'locations.edit');
  return (
    <li
      id={`spot-${s.id}`}
      tabIndex={-1}
      data-testid="spot"
      className="flex flex-col gap-2 rounded-xl border border-line bg-white p-4 text-sm text-ink outline-none focus-visible:ring-3 focus-visible:ring-primary-strong"
    >
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-base font-bold">
          <span className="mr-2 inline-flex size-6 items-center justify-center rounded-full bg-canvas text-xs">{n}</span>
          {s.name}
        </h2>
        <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_PILL[s.status]}`}>{s.status}</span>
      </div>
      <p className="text-muted">
        {s.kind} · proposed {when(s.createdAt)} ·{' '}
        <span className="font-mono">
          {s.lat.toFixed(4)}, {s.lng.toFixed(4)}
        </span>
      </p>
      <p>{s.description || <span className="text-muted">No description.</span>}</p>
      {s.proposedBy && mayUse(me, 'users.view') ? (
        <Link className="w-fit font-semibold text-primary-strong underline" to={`/admin/users/${s.proposedBy}`}>
          Who proposed it
        </Link>
      ) : null}
      {s.reviewedAt ? (
        <p className="rounded-lg bg-canvas px-3 py-2">
          Reviewed {when(s.reviewedAt)}
          {s.reviewNote ? `: ${s.reviewNote}` : ''}
        </p>
      ) : null}
      <FormError>{error}</FormError>
      {mode === 'edit' ? <EditForm spot={s} onDone={() => setMode('idle')} /> : null}
      {mode === 'reject' ? <RejectForm spot={s} onDone={() => setMode('idle')} /> : null}
      {mode === 'idle' && (mayApprove || mayEdit) ? (
        <div className="mt-1 flex flex-wrap gap-2">
          {mayApprove && s.status !== 'approved' ? (
            <Button
              className="min-h-10 px-4"
              loading={approve.isPending}
              onClick={() => {
                setError(null);
                approve.mutate(undefined, { onError: (e) => setError(errorMessage(e, 'That did not work.')) });
              }}
            >
              Approve
            </Button>
          ) : null}
          {mayEdit ? (
            <Button variant="secondary" className="min-h-10 px-4 text-sm" onClick={() => setMode('edit')}>
              Edit
            </Button>
          ) : null}
          {mayApprove && s.status !== 'rejected' ? (
            <Button variant="danger" className="min-h-10 px-4 text-sm" onClick={() => setMode('reject')}>
              {s.status === 'approved' ? 'Take down' : 'Reject'}
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function EditForm({ spot: s, onDone }: { spot: AdminSpot; onDone: () => void }) {
  const [v, setV] = useState({ name: s.name, kind: s.kind, description: s.description, reason: '' });
  const [error, setError] = useState<string | null>(null);
  const save = useStaffMutation(() =>
    staffCall('PATCH /admin/locations/:id', {
      params: { id: s.id },
      body: { name: v.name, kind: v.kind, description: v.description, reason: v.reason || undefined },
    }),
  );
  return (
    <form
      aria-label={`Edit ${s.name}`}
      className="flex flex-col gap-3 rounded-xl border border-line p-3"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        save.mutate(undefined, { onSuccess: onDone, onError: (err) => setError(errorMessage(err, 'That did not work.')) });
      }}
    >
      <TextField label="Name" value={v.name} maxLength={80} required onChange={(e) => setV({ ...v, name: e.target.value })} />
      <SelectField label="Kind" value={v.kind} onChange={(e) => setV({ ...v, kind: e.target.value as AdminSpot['kind'] })}>
        {SPOT_KINDS.map((k) => (
          <option key={k} value={k}>
            {k}
          </option>
        ))}
      </SelectField>
      <TextArea
        label="Description"
        value={v.description}
        maxLength={500}
        onChange={(e) => setV({ ...v, description: e.target.value })}
      />
      <TextField label="Reason (optional)" value={v.reason} onChange={(e) => setV({ ...v, reason: e.target.value })} />
      <FormError>{error}</FormError>
      <div className="flex gap-2">
        <Button type="submit" className="min-h-10 flex-1 px-4" loading={save.isPending}>
          Save
        </Button>
        <Button type="button" variant="secondary" className="min-h-10 flex-1 px-4 text-sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RejectForm({ spot: s, onDone }: { spot: AdminSpot; onDone: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reject = useStaffMutation(() => staffCall('POST /admin/locations/:id/reject', { params: { id: s.id }, body: { note } }));
  return (
    <form
      aria-label={`Reject ${s.name}`}
      className="flex flex-col gap-3 rounded-xl border border-line p-3"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        reject.mutate(undefined, { onSuccess: onDone, onError: (err) => setError(errorMessage(err, 'That did not work.')) });
      }}
    >
      <TextField
        label="Why is it rejected?"
        hint="Kept with the spot and in the audit log."
        value={note}
        maxLength={500}
        required
        onChange={(e) => setNote(e.target.value)}
      />
      <FormError>{error}</FormError>
      <div className="flex gap-2">
        <Button type="submit" variant="danger" className="min-h-10 flex-1 px-4 text-sm" loading={reject.isPending}>
          {s.status === 'approved' ? 'Take down' : 'Reject'}
        </Button>
        <Button type="button" variant="secondary" className="min-h-10 flex-1 px-4 text-sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
