import { MODERATION_STATUSES, type ModerationItem } from '@fmk/core';
import { useEffect, useState } from 'react';
import { Navigate, NavLink, useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { AdminListPage } from './AdminListPage.tsx';
import { when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation } from './queries.ts';
import { StaffPhoto } from './StaffPhoto.tsx';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

type Status = ModerationItem['status'];

const TITLES: Record<Status, string> = { pending: 'Photos to review', approved: 'Approved photos', rejected: 'Rejected photos' };
const photoClass = 'aspect-square w-full rounded-lg bg-canvas object-cover';

/**
 * The item's picture: a profile photo at its public address; a chat photo only when a report holds
 * it as evidence, fetched with the staff token; any other chat photo stays private to its conversation.
 */
function ItemPhoto({ item }: { item: ModerationItem }) {
  const what = item.contentType === 'chat_photo' ? 'chat photo' : 'profile photo';
  if (item.url)
    return <img src={item.url} alt={`${item.status === 'pending' ? 'Held' : 'Reviewed'} ${what}`} className={photoClass} />;
  if (item.photoPath) return <StaffPhoto path={item.photoPath} alt="Reported chat photo" className={photoClass} />;
  const text =
    item.contentType === 'chat_photo' && item.status !== 'rejected'
      ? 'Private chat photo: no report holds it, so it is not shown.'
      : 'Removed';
  return (
    <p className="flex aspect-square w-full items-center justify-center rounded-lg bg-canvas p-6 text-center text-muted">
      {text}
    </p>
  );
}

/**
 * content/pending | approved | rejected: the photo moderation queues, paged by the server like
 * every admin list. Approving a held photo shows it to others; rejecting removes it. On the pending
 * queue, A approves and R rejects the first item, for a fast queue.
 */
export function ContentScreen() {
  const { status } = useParams();
  if (!(MODERATION_STATUSES as readonly string[]).includes(status ?? '')) return <Navigate to="/admin/content/pending" replace />;
  // One list per queue: switching queues starts at page 1.
  return <ContentQueue key={status} status={status as Status} />;
}

function ContentQueue({ status }: { status: Status }) {
  const me = useAdminMe().data;
  const list = useAdminList({
    initial: { status },
    key: adminKeys.content,
    fetch: (query) => staffCall('GET /admin/moderation/items', { query }),
  });
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const decide = useStaffMutation((v: { id: string; decision: 'approve' | 'reject' }) =>
    staffCall('PATCH /admin/moderation/items/:id', {
      params: { id: v.id },
      body: { decision: v.decision, notes: notes || undefined },
    }),
  );
  const mayDecide = mayUse(me, 'content.approve') && status === 'pending';
  const first = list.q.data?.rows[0];
  const act = (id: string, decision: 'approve' | 'reject') => {
    setError(null);
    decide.mutate(
      { id, decision },
      { onSuccess: () => setNotes(''), onError: (e) => setError(errorMessage(e, 'That did not work.')) },
    );
  };

  useEffect(() => {
    if (!mayDecide || !first) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.metaKey || e.ctrlKey) return;
      if (e.key === 'a') act(first.id, 'approve');
      if (e.key === 'r') act(first.id, 'reject');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <AdminListPage
      list={list}
      title={TITLES[status]}
      top={
        <>
          <nav aria-label="Queues" className="mb-4 flex gap-2">
            {MODERATION_STATUSES.map((s) => (
              <NavLink
                key={s}
                to={`/admin/content/${s}`}
                className={({ isActive }) =>
                  `rounded-full px-4 py-2 text-sm font-semibold ${isActive ? 'bg-ink text-white' : 'bg-canvas text-ink'}`
                }
              >
                {s}
              </NavLink>
            ))}
          </nav>
          {mayDecide ? <p className="mb-3 text-sm text-muted">Keyboard: A approves and R rejects the first photo.</p> : null}
          <FormError boxed>{error}</FormError>
        </>
      }
      what="the queue"
      empty={{ title: `No ${status} photos`, body: 'Photos the model holds for review appear here.' }}
    >
      {(d) => (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {d.rows.map((it, i) => (
            <li
              key={it.id}
              className="flex flex-col gap-2 rounded-xl border border-line p-3 text-sm text-ink"
              data-testid="moderation-item"
            >
              <ItemPhoto item={it} />
              <p>
                <span className="font-semibold">{it.contentType === 'chat_photo' ? 'Chat photo' : 'Profile photo'}</span>
                {it.reported ? ' · reported' : ''} · {it.flaggedReason ?? 'not flagged'} · confidence{' '}
                {(it.confidence * 100).toFixed(0)}%
              </p>
              <p className="text-muted">
                nudity {it.aiAnalysis.nudity?.toFixed(2) ?? '—'} · violence {it.aiAnalysis.violence?.toFixed(2) ?? '—'} · underage{' '}
                {it.aiAnalysis.underage.toFixed(2)}
              </p>
              <p className="text-muted">{when(it.timestamp)}</p>
              {it.moderatorNotes ? <p>Note: {it.moderatorNotes}</p> : null}
              {mayDecide ? (
                <>
                  {i === 0 ? (
                    <TextField label="Note (optional)" value={notes} onChange={(e) => setNotes(e.target.value)} />
                  ) : null}
                  <div className="flex gap-2">
                    <Button
                      className="min-h-10 flex-1 px-3 text-sm"
                      loading={decide.isPending && decide.variables?.id === it.id}
                      onClick={() => act(it.id, 'approve')}
                    >
                      Approve
                    </Button>
                    <Button variant="secondary" className="min-h-10 flex-1 px-3 text-sm" onClick={() => act(it.id, 'reject')}>
                      Reject
                    </Button>
                  </div>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </AdminListPage>
  );
}
