import {
  FEEDBACK_CATEGORIES,
  FEEDBACK_CATEGORY_LABELS,
  FEEDBACK_STATUS_LABELS,
  FEEDBACK_STATUSES,
  type FeedbackCategory,
  type FeedbackKind,
  type FeedbackStatus,
  type StaffFeedback,
} from '@fmk/core';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../ui/FormError.tsx';
import { SelectField, TextField } from '../../ui/TextField.tsx';
import { AdminListPage, FilterSelect, ListSearch, StatusTabs } from './AdminListPage.tsx';
import { when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation } from './queries.ts';
import { StaffPhoto } from './StaffPhoto.tsx';
import { memberLabel } from './SupportScreens.tsx';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

type Filter = FeedbackStatus | 'all';

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
      {r.screenshot ? (
        <StaffPhoto
          path={`/support/screenshots/${r.screenshot.id}`}
          alt="Screenshot the member attached"
          className="max-h-64 w-auto self-start rounded-lg border border-line"
        />
      ) : null}
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
 * Bugs and feedback (admin/feedback): what members sent from settings, newest first; status,
 * kind, category, words and pages are the server's. Each with its screenshot, app version and browser.
 */
export function FeedbackScreen() {
  const me = useAdminMe().data;
  const list = useAdminList({
    initial: { status: 'new' as Filter, kind: '' as FeedbackKind | '', category: '' as FeedbackCategory | '', q: '' },
    tab: 'status',
    key: adminKeys.feedback,
    fetch: (query) => staffCall('GET /admin/support/reports', { query }),
  });
  return (
    <AdminListPage
      list={list}
      title="Bugs & feedback"
      top={
        <StatusTabs
          label="Report status"
          options={['all', ...FEEDBACK_STATUSES] as Filter[]}
          value={list.filter.status}
          onChange={(status) => list.set({ status })}
          names={{ all: 'all', ...FEEDBACK_STATUS_LABELS }}
        />
      }
      search={
        <ListSearch list={list} label="Search bugs and feedback" grid="md:grid-cols-[10rem_12rem_1fr_auto]" variant="secondary">
          <FilterSelect
            list={list}
            name="kind"
            label="Kind"
            any="Bugs and feedback"
            options={['bug', 'feedback']}
            names={{ bug: 'Bugs', feedback: 'Feedback' }}
          />
          <FilterSelect
            list={list}
            name="category"
            label="Category"
            any="Every category"
            options={FEEDBACK_CATEGORIES}
            names={FEEDBACK_CATEGORY_LABELS}
          />
          <TextField label="Search text or member" type="search" {...list.field('q')} />
        </ListSearch>
      }
      what="reports"
      empty={{ title: 'No reports here', body: 'Bug reports and feedback members send land here.' }}
      noMatch={{ title: 'No report matches these filters', body: 'Try other words, another kind or category.' }}
    >
      {(d) => (
        <ul className="flex flex-col gap-3">
          {d.rows.map((r) => (
            <ReportItem key={r.id} r={r} mayEdit={mayUse(me, 'reports.edit')} />
          ))}
        </ul>
      )}
    </AdminListPage>
  );
}
