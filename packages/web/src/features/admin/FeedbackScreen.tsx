import {
  FEEDBACK_CATEGORIES,
  FEEDBACK_CATEGORY_LABELS,
  FEEDBACK_STATUS_LABELS,
  FEEDBACK_STATUSES,
  type FeedbackCategory,
  type FeedbackStatus,
  type StaffFeedback,
} from '@fmk/core';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../ui/FormError.tsx';
import { SelectField, TextField } from '../../ui/TextField.tsx';
import { QueryState, ScreenTitle, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { memberLabel, StatusTabs } from './SupportScreens.tsx';
import { staffBlob, staffCall } from './session.ts';

type Filter = FeedbackStatus | 'all';

/** A report's screenshot is served only with a token, so it is fetched with the staff one and shown from an object URL. */
function Screenshot({ id }: { id: string }) {
  const q = useStaffQuery(adminKeys.screenshot(id), () => staffBlob(`/support/screenshots/${id}`));
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!q.data || typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(q.data);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [q.data]);
  if (q.isError) return <p className="text-muted">Screenshot attached (could not be loaded)</p>;
  if (!src) return <p className="text-muted">Loading screenshot…</p>;
  return (
    <a href={src} target="_blank" rel="noreferrer" className="self-start">
      <img src={src} alt="Screenshot the member attached" className="max-h-64 w-auto rounded-lg border border-line" />
    </a>
  );
}

function ReportItem({ r, mayEdit }: { r: StaffFeedback; mayEdit: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const move = useStaffMutation((status: FeedbackStatus) =>
    staffCall('PATCH /admin/support/reports/:id', { params: { id: r.id }, body: { status } }),
  );
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-line p-4 text-sm text-ink" data-testid="feedback">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          {r.kind === 'bug' ? 'Bug' : 'Feedback'} · {FEEDBACK_CATEGORY_LABELS[r.category]}
        </p>
        <p className="text-muted">
          {FEEDBACK_STATUS_LABELS[r.status]} · sent {when(r.createdAt)}
        </p>
      </div>
      <p className="whitespace-pre-wrap">{r.text}</p>
      <p className="text-muted">
        {memberLabel(r.member)} · {r.member.tier} · app {r.appVersion || 'unknown'} · {r.browser || 'unknown browser'}
      </p>
      {r.screenshot ? <Screenshot id={r.screenshot.id} /> : null}
      {mayEdit ? (
        <div className="max-w-xs">
          <SelectField
            label="Status"
            value={r.status}
            disabled={move.isPending}
            onChange={(e) => {
              setError(null);
              move.mutate(e.target.value as FeedbackStatus, {
                onError: (err) => setError(errorMessage(err, 'The status did not change.')),
              });
            }}
          >
            {FEEDBACK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {FEEDBACK_STATUS_LABELS[s]}
              </option>
            ))}
          </SelectField>
        </div>
      ) : null}
      <FormError>{error}</FormError>
    </li>
  );
}

/**
 * Bugs and feedback (admin/feedback): what members sent from settings, newest first, by status;
 * narrowed by kind, category and words; each with its screenshot, app version and browser.
 */
export function FeedbackScreen() {
  const me = useAdminMe().data;
  const [status, setStatus] = useState<Filter>('new');
  const [kind, setKind] = useState<'all' | 'bug' | 'feedback'>('all');
  const [category, setCategory] = useState<FeedbackCategory | 'all'>('all');
  const [search, setSearch] = useState('');
  const q = useStaffQuery(adminKeys.feedback(status), () =>
    staffCall('GET /admin/support/reports', { query: status === 'all' ? {} : { status } }),
  );
  const needle = search.trim().toLowerCase();
  return (
    <>
      <ScreenTitle>Bugs & feedback</ScreenTitle>
      <StatusTabs
        label="Report status"
        options={['all', ...FEEDBACK_STATUSES] as Filter[]}
        value={status}
        onChange={setStatus}
        names={{ all: 'all', ...FEEDBACK_STATUS_LABELS }}
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-3">
        <SelectField label="Kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
          <option value="all">Bugs and feedback</option>
          <option value="bug">Bugs</option>
          <option value="feedback">Feedback</option>
        </SelectField>
        <SelectField label="Category" value={category} onChange={(e) => setCategory(e.target.value as typeof category)}>
          <option value="all">Every category</option>
          {FEEDBACK_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {FEEDBACK_CATEGORY_LABELS[c]}
            </option>
          ))}
        </SelectField>
        <TextField label="Search text or member" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <QueryState
        q={q}
        what="reports"
        isEmpty={(d) => d.length === 0}
        empty={{ title: 'No reports here', body: 'Bug reports and feedback members send land here.' }}
      >
        {(rows) => {
          const shown = rows.filter(
            (r) =>
              (kind === 'all' || r.kind === kind) &&
              (category === 'all' || r.category === category) &&
              (!needle || `${r.text} ${memberLabel(r.member)}`.toLowerCase().includes(needle)),
          );
          if (shown.length === 0) return <p className="py-6 text-center text-muted">No report matches these filters.</p>;
          return (
            <ul className="flex flex-col gap-3">
              {shown.map((r) => (
                <ReportItem key={r.id} r={r} mayEdit={mayUse(me, 'reports.edit')} />
              ))}
            </ul>
          );
        }}
      </QueryState>
    </>
  );
}
