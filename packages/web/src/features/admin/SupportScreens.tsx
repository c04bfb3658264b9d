import { THREAD_STATUSES, type ThreadStatus, TIERS, type Tier } from '@fmk/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { TextArea, TextField } from '../../ui/TextField.tsx';
import { AdminListPage, FilterSelect, ListSearch, StatusTabs } from './AdminListPage.tsx';
import { QueryState, ScreenTitle, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';
import { useAdminList } from './useAdminList.ts';

type Filter = ThreadStatus | 'all';

/** Who wrote, as staff may see him: the name and anonymous id, never the email. */
export function memberLabel(m: { displayName: string | null; anonymousId: string | null; uid: string }): string {
  return [m.displayName ?? 'No name', m.anonymousId ?? m.uid].join(' · ');
}

/**
 * The support inbox (admin/support): members' conversations, Platinum members' first (the server
 * orders them so, the tier's priority support); status, tier, words and pages are the server's.
 */
export function SupportScreen() {
  const list = useAdminList({
    initial: { status: 'open' as Filter, tier: '' as Tier | '', q: '' },
    tab: 'status',
    key: adminKeys.threads,
    fetch: (query) => staffCall('GET /admin/support/threads', { query }),
  });
  return (
    <AdminListPage
      list={list}
      title="Support"
      top={
        <StatusTabs
          label="Conversation status"
          options={['all', ...THREAD_STATUSES] as Filter[]}
          value={list.filter.status}
          onChange={(status) => list.set({ status })}
        />
      }
      search={
        <ListSearch list={list} label="Search conversations" grid="md:grid-cols-[1fr_12rem_auto]" variant="secondary">
          <TextField label="Search subject or member" type="search" {...list.field('q')} />
          <FilterSelect list={list} name="tier" label="Tier" any="Every tier" options={TIERS} />
        </ListSearch>
      }
      what="support conversations"
      empty={{ title: 'No conversations here', body: 'Conversations members start from Help land here.' }}
      noMatch={{ title: 'No conversation matches', body: 'Try other words or another tier.' }}
    >
      {(d) => (
        <ul className="flex flex-col gap-2">
          {d.rows.map((t) => (
            <li key={t.id} data-testid="thread">
              <Link
                to={`/admin/support/${t.id}`}
                className="flex flex-col gap-1 rounded-xl border border-line p-4 text-sm text-ink hover:bg-canvas"
              >
                <span className="flex flex-wrap items-center gap-2">
                  {t.priority ? (
                    <span className="rounded-full bg-ink px-2 py-0.5 text-xs font-bold text-white">Priority</span>
                  ) : null}
                  <span className="font-semibold">{t.subject}</span>
                  {t.unread ? <span className="text-primary-strong font-semibold">{t.unread} unread</span> : null}
                </span>
                <span className="text-muted">
                  {memberLabel(t.member)} · {t.member.tier} · {t.status} · last {when(t.lastMessageAt)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </AdminListPage>
  );
}

/** One conversation (admin/support/:id): read it (the server marks it read for staff), answer it, close it. */
export function SupportThreadScreen() {
  const { id = '' } = useParams();
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.thread(id), () => staffCall('GET /admin/support/threads/:id', { params: { id } }));
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reply = useStaffMutation((v: string) =>
    staffCall('POST /admin/support/threads/:id/messages', { params: { id }, body: { text: v } }),
  );
  const close = useStaffMutation(() =>
    staffCall('PATCH /admin/support/threads/:id', { params: { id }, body: { status: 'closed' } }),
  );
  const mayAnswer = mayUse(me, 'reports.edit');
  return (
    <>
      <Link to="/admin/support" className="text-sm font-semibold text-primary-strong underline">
        All conversations
      </Link>
      <QueryState q={q} what="the conversation">
        {(t) => (
          <>
            <ScreenTitle
              actions={
                mayAnswer && t.status !== 'closed' ? (
                  <Button
                    variant="secondary"
                    className="min-h-10 px-4 text-sm"
                    loading={close.isPending}
                    onClick={() => close.mutate(undefined, { onError: (e) => setError(errorMessage(e, 'Could not close it.')) })}
                  >
                    Close conversation
                  </Button>
                ) : null
              }
            >
              {t.subject}
            </ScreenTitle>
            <p className="mb-3 text-sm text-muted">
              {t.priority ? <strong className="text-ink">Priority · </strong> : null}
              {memberLabel(t.member)} · {t.member.tier} · {t.status} · started {when(t.createdAt)}
            </p>
            <ol aria-label="Messages" className="flex flex-col gap-2">
              {t.messages.map((m) => (
                <li
                  key={m.id}
                  className={`max-w-prose rounded-xl p-3 text-sm ${m.from === 'staff' ? 'self-end bg-ink text-white' : 'self-start bg-canvas text-ink'}`}
                >
                  <p className="mb-1 text-xs font-semibold">
                    {m.from === 'staff' ? 'Support' : 'Member'} · {when(m.createdAt)}
                  </p>
                  <p className="whitespace-pre-wrap">{m.text}</p>
                </li>
              ))}
            </ol>
            {mayAnswer && t.status !== 'closed' ? (
              <form
                className="mt-4 flex flex-col gap-2"
                aria-label="Answer"
                onSubmit={(e) => {
                  e.preventDefault();
                  setError(null);
                  reply.mutate(text.trim(), {
                    onSuccess: () => setText(''),
                    onError: (err) => setError(errorMessage(err, 'The answer was not sent.')),
                  });
                }}
              >
                <TextArea label="Your answer" value={text} onChange={(e) => setText(e.target.value)} maxLength={4000} />
                <Button type="submit" loading={reply.isPending} disabled={!text.trim()}>
                  Send answer
                </Button>
              </form>
            ) : null}
            {t.status === 'closed' ? <p className="mt-4 text-sm text-muted">This conversation is closed.</p> : null}
            <FormError>{error}</FormError>
          </>
        )}
      </QueryState>
    </>
  );
}
