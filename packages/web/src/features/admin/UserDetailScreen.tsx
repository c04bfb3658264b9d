import { type AdminUserDetail, type AdminUserReport, REPORT_CATEGORY_LABELS, TIERS, type Tier } from '@fmk/core';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { SelectField, TextField } from '../../ui/TextField.tsx';
import { QueryState, ScreenTitle, when } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

/** A date field's day as the ISO instant its midnight UTC is, or null when empty. */
const dayToIso = (day: FormDataEntryValue | null) => (day ? new Date(`${String(day)}T00:00:00Z`).toISOString() : null);

/** A form with a reason, for one staff action; the server audits it with that reason. */
function ActionForm({
  title,
  submit,
  variant = 'secondary',
  extra,
  onDone,
  run,
}: {
  title: string;
  submit: string;
  variant?: 'secondary' | 'danger' | 'primary';
  extra?: ReactNode;
  onDone?: (r: unknown) => void;
  run: (reason: string, form: FormData) => Promise<unknown>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const m = useStaffMutation((v: { reason: string; form: FormData }) => run(v.reason, v.form));
  return (
    <form
      aria-label={title}
      className="flex flex-col gap-3 rounded-xl border border-line p-4"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        setDone(false);
        const form = new FormData(e.currentTarget);
        m.mutate(
          { reason, form },
          {
            onSuccess: (r) => {
              setReason('');
              setDone(true);
              onDone?.(r);
            },
            onError: (err) => setError(errorMessage(err, 'That did not work.')),
          },
        );
      }}
    >
      <h2 className="font-semibold text-ink">{title}</h2>
      {extra}
      <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} required minLength={3} />
      <FormError>{error}</FormError>
      {done ? (
        <p role="status" className="text-sm text-muted">
          Done, and written to the audit log.
        </p>
      ) : null}
      <Button type="submit" variant={variant} loading={m.isPending}>
        {submit}
      </Button>
    </form>
  );
}

/** Reports on his record, one side: each with the member on the other side, linked to his record. */
function ReportList({ title, rows, total, otherIs }: { title: string; rows: AdminUserReport[]; total: number; otherIs: string }) {
  return (
    <section aria-label={title} className="rounded-xl border border-line p-4 text-sm text-ink">
      <h2 className="font-semibold">
        {title} <span className="font-normal text-muted">({total})</span>
      </h2>
      {rows.length === 0 ? (
        <p className="mt-1 text-muted">None.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2">
          {rows.map((r) => (
            <li key={r.id} data-testid="user-report" className="flex flex-col">
              <span className="font-semibold">
                {REPORT_CATEGORY_LABELS[r.category]} · {r.status}
              </span>
              <span className="whitespace-pre-wrap">{r.reason}</span>
              <span className="text-muted">
                {otherIs}{' '}
                <Link className="text-primary-strong underline" to={`/admin/users/${r.other.id}`}>
                  {r.other.displayName ?? r.other.anonymousId ?? 'member'}
                </Link>{' '}
                · {when(r.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {total > rows.length ? <p className="mt-2 text-muted">The latest {rows.length} are shown.</p> : null}
    </section>
  );
}

function Profile({ u, email }: { u: AdminUserDetail; email: string | null }) {
  const status = u.banned
    ? `banned ${u.banned.until ? `until ${when(u.banned.until)}` : 'permanently'}: ${u.banned.reason}`
    : u.isActive
      ? 'active'
      : 'deactivated';
  const rows: [string, ReactNode][] = [
    [
      'Anonymous id',
      <span key="a" className="font-mono" data-testid="anon-id">
        {u.anonymousId ?? '—'}
      </span>,
    ],
    ['Age', u.age ?? '—'],
    ['Tier', u.tier],
    [
      'Status',
      <span key="s" data-testid="user-status">
        {status}
      </span>,
    ],
    ['Staff role', u.staffRole?.replace('_', ' ') ?? '—'],
    ['Onboarding', u.onboardingComplete ? 'finished' : 'not finished'],
    ['Photos', u.photos],
    ['Joined', when(u.createdAt)],
    ['Last seen', when(u.lastSeen)],
  ];
  return (
    <section aria-label="Profile" className="rounded-xl bg-canvas p-4 text-sm text-ink">
      <p className="text-lg font-bold">{u.displayName ?? 'No name yet'}</p>
      <dl className="mt-2 grid grid-cols-[8rem_1fr] gap-y-1">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-muted">{k}</dt>
            <dd className="min-w-0 break-words">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 whitespace-pre-wrap">{u.bio || 'No bio yet'}</p>
      {email ? (
        <p className="mt-3 rounded-lg bg-white p-2">
          Email (lookup audited): <strong>{email}</strong>
        </p>
      ) : null}
    </section>
  );
}

function ModerationItems({ items }: { items: AdminUserDetail['moderationItems'] }) {
  return (
    <section aria-label="Moderation items" className="rounded-xl border border-line p-4 text-sm text-ink">
      <h2 className="font-semibold">Moderation items</h2>
      {items.length === 0 ? (
        <p className="mt-1 text-muted">None.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-1">
          {items.map((m) => (
            <li key={m.id} data-testid="user-moderation-item">
              <Link className="text-primary-strong underline" to={`/admin/content/${m.status}`}>
                {m.contentType === 'chat_photo' ? 'Chat photo' : 'Profile photo'} · {m.status}
              </Link>
              <span className="text-muted">
                {' '}
                · {m.flaggedReason ? `flagged: ${m.flaggedReason}` : 'not flagged'} · {when(m.createdAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The actions on him, each shown only with its permission (the server refuses the rest anyway). */
function Actions({ u, onEmail }: { u: AdminUserDetail; onEmail: (email: string) => void }) {
  const me = useAdminMe().data;
  const id = u.id;
  return (
    <div className="flex flex-col gap-3">
      {mayUse(me, 'users.ban') && u.banned ? (
        <ActionForm
          title="Unban"
          submit="Lift the ban"
          run={(reason) => staffCall('POST /admin/users/:id/unban', { params: { id }, body: { reason } })}
        />
      ) : null}
      {mayUse(me, 'users.ban') && !u.banned ? (
        <ActionForm
          title="Ban"
          submit="Ban this user"
          variant="danger"
          extra={<TextField label="Until (leave empty for a permanent ban)" type="date" name="until" />}
          run={(reason, form) =>
            staffCall('POST /admin/users/:id/ban', { params: { id }, body: { reason, until: dayToIso(form.get('until')) } })
          }
        />
      ) : null}
      {mayUse(me, 'users.edit') ? (
        <>
          <ActionForm
            title={u.isActive ? 'Deactivate' : 'Reactivate'}
            submit={u.isActive ? 'Deactivate the account' : 'Reactivate the account'}
            run={(reason) =>
              staffCall(u.isActive ? 'POST /admin/users/:id/deactivate' : 'POST /admin/users/:id/reactivate', {
                params: { id },
                body: { reason },
              })
            }
          />
          <ActionForm
            title="Change tier"
            submit="Change the tier"
            extra={
              <>
                <SelectField label="New tier" name="tier" defaultValue={u.tier}>
                  {TIERS.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </SelectField>
                <TextField label="Free of charge until (leave empty for a year)" type="date" name="until" />
              </>
            }
            run={(reason, form) => {
              // A complimentary membership: it never charges him and lapses at this date.
              const until = dayToIso(form.get('until'));
              return staffCall('POST /admin/users/:id/tier', {
                params: { id },
                body: { reason, tier: form.get('tier') as Tier, ...(until ? { until } : {}) },
              });
            }}
          />
          <ActionForm
            title="New anonymous id"
            submit="Regenerate the anonymous id"
            run={(reason) => staffCall('POST /admin/users/:id/anonymous-id', { params: { id }, body: { reason } })}
          />
        </>
      ) : null}
      {u.anonymousId ? (
        <ActionForm
          title="Identity lookup"
          submit="Show the email (audited)"
          run={(reason) => staffCall('POST /admin/identity/lookup', { body: { anonymousId: u.anonymousId!, reason } })}
          onDone={(r) => onEmail((r as { email: string }).email)}
        />
      ) : null}
    </div>
  );
}

/** users/:id: one user as staff see him: profile, tier, status, reports against him and by him, moderation items; the actions on him. */
export function UserDetailScreen() {
  const { id = '' } = useParams();
  const q = useStaffQuery(adminKeys.user(id), () => staffCall('GET /admin/users/:id', { params: { id } }));
  const [email, setEmail] = useState<string | null>(null);
  return (
    <>
      <ScreenTitle
        actions={
          <Link className="text-sm font-semibold text-primary-strong underline" to="/admin/users">
            All users
          </Link>
        }
      >
        {q.data?.displayName ?? 'User'}
      </ScreenTitle>
      <QueryState q={q} what="this user">
        {(u) => (
          <div className="grid gap-4 md:grid-cols-2">
            <div className="flex min-w-0 flex-col gap-4">
              <Profile u={u} email={email} />
              <ReportList title="Reports against him" rows={u.reports.against} total={u.reportsAgainst} otherIs="by" />
              <ReportList title="Reports he made" rows={u.reports.by} total={u.reportsBy} otherIs="against" />
              <ModerationItems items={u.moderationItems} />
            </div>
            <Actions u={u} onEmail={setEmail} />
          </div>
        )}
      </QueryState>
    </>
  );
}
