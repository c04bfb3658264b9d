import type { ActivityLog, ActivityStats, Contact } from '@fmk/core';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { waitingForNetwork } from '../../shared/online.ts';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { Button, ButtonLink, buttonClass } from '../../ui/Button.tsx';
import { ChipInput } from '../../ui/ChipInput.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { CalendarIcon, CameraIcon, EditIcon, LockIcon, PlusIcon } from '../../ui/icons.tsx';
import { OfflineState } from '../../ui/OfflineState.tsx';
import { Page } from '../../ui/Page.tsx';
import { PHOTO_ACCEPT } from '../../ui/PhotoTiles.tsx';
import { Card, Pill, Section } from '../../ui/Section.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { formatDay } from '../health/format.ts';
import { PrivacySection } from '../health/PrivacySection.tsx';
import { useLocalNow } from '../health/queries.ts';
import { ContactAvatar, formatDuration, ProtectionPill, partnerNames, Stars } from './parts.tsx';
import { useLinkablePeople } from './people.ts';
import {
  useActivityLogsQuery,
  useActivityStatsQuery,
  useContactsQuery,
  useCreateContactMutation,
  useDeleteActivityLogMutation,
  useDeleteContactMutation,
  useUpdateContactMutation,
  useUploadContactPhotoMutation,
} from './queries.ts';

/** /activity: the stats of spec section 9, the log and the contacts. */
export function ActivityScreen() {
  const [prefs] = useAppPreferences();
  if (!prefs.activityTrackingEnabled) {
    return (
      <Page title="Activity">
        <EmptyState
          icon={<CalendarIcon />}
          title="Activity tracking is off"
          body="Turn it on in Settings to keep a private log of encounters and contacts."
          action={<ButtonLink to="/settings">Open Settings</ButtonLink>}
        />
      </Page>
    );
  }
  return <ActivityContent />;
}

function ActivityContent() {
  const today = useLocalNow(60_000).date;
  const stats = useActivityStatsQuery();
  const logs = useActivityLogsQuery();
  const contacts = useContactsQuery();
  const [open, setOpen] = useState<ActivityLog | null>(null);
  const [contactSheet, setContactSheet] = useState<Contact | 'new' | null>(null);
  const names = new Map((contacts.data ?? []).map((c) => [c.id, c.nickname ? `${c.name} (${c.nickname})` : c.name]));
  const byId = new Map((contacts.data ?? []).map((c) => [c.id, c]));
  // The open sheet follows the list, so an uploaded photo or an edit shows at once.
  const shownContact = contactSheet === 'new' || contactSheet === null ? null : (byId.get(contactSheet.id) ?? contactSheet);

  const failed = stats.isError || logs.isError || contacts.isError;
  const loading = stats.isPending || logs.isPending || contacts.isPending;

  return (
    <Page
      title="Activity"
      actions={
        <ButtonLink to="/activity/log" className="min-h-10 px-4 text-base">
          Log
        </ButtonLink>
      }
    >
      <p className="flex items-center gap-1.5 px-4 pb-1 text-sm text-muted">
        <LockIcon width={16} height={16} /> Private and encrypted. Only you can see this.
      </p>
      {waitingForNetwork(stats, logs, contacts) ? (
        <OfflineState body="Your activity is kept on our server only, encrypted, never on this phone. It shows when you're back online." />
      ) : failed ? (
        <LoadError
          title="We couldn't load your activity"
          onRetry={() => Promise.all([stats.refetch(), logs.refetch(), contacts.refetch()])}
        />
      ) : loading ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading your activity" />
        </div>
      ) : (
        <>
          <StatsGrid stats={stats.data} />
          <Section title="Log">
            {logs.data.length === 0 ? (
              <Card className="flex flex-col items-start gap-3">
                <p className="text-base font-semibold text-ink">Nothing logged yet</p>
                <p className="text-sm text-muted">
                  Keep track of who, where and how it went. Your stats and screening reminders build on it.
                </p>
                <ButtonLink to="/activity/log">Log an activity</ButtonLink>
              </Card>
            ) : (
              <ul className="flex flex-col gap-3">
                {logs.data.map((l) => (
                  <li key={l.id}>
                    <button
                      type="button"
                      onClick={() => setOpen(l)}
                      className="flex w-full flex-col gap-1.5 rounded-2xl border border-line bg-white p-4 text-left hover:bg-canvas"
                    >
                      <span className="flex w-full items-center justify-between gap-2">
                        <span className="text-base font-semibold text-ink">{formatDay(l.date, today)}</span>
                        {l.rating ? <Stars rating={l.rating} /> : null}
                      </span>
                      <span className="flex items-center gap-2 text-sm text-ink">
                        <PartnerFaces ids={l.partners} contacts={byId} />
                        {l.partners.length ? partnerNames(l, names) : 'Solo or unnamed'}
                      </span>
                      <span className="flex flex-wrap items-center gap-1.5 text-sm text-muted">
                        <ProtectionPill protection={l.protection} />
                        {l.location ? <span>{l.location}</span> : null}
                        {l.duration ? <span>· {formatDuration(l.duration)}</span> : null}
                      </span>
                      {l.activities.length ? <span className="text-sm text-muted">{l.activities.join(' · ')}</span> : null}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Section
            title="Contacts"
            action={
              <Button variant="ghost" className="min-h-10 px-3" onClick={() => setContactSheet('new')}>
                <PlusIcon width={18} height={18} /> Add
              </Button>
            }
          >
            {contacts.data.length === 0 ? (
              <p className="text-sm text-muted">People you log activities with are kept here, with how often and how it went.</p>
            ) : (
              <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-white">
                {contacts.data.map((c) => (
                  <li key={c.id}>
                    <button
                      type="button"
                      onClick={() => setContactSheet(c)}
                      className="flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-canvas"
                    >
                      <ContactAvatar contact={c} />
                      <span className="flex min-w-0 flex-1 flex-col">
                        <span className="truncate text-base font-semibold text-ink">
                          {c.name}
                          {c.nickname ? <span className="font-normal text-muted"> · {c.nickname}</span> : null}
                        </span>
                        <span className="text-sm text-muted">
                          {c.totalActivities === 0
                            ? 'No activity yet'
                            : `${c.totalActivities} ${c.totalActivities === 1 ? 'time' : 'times'} · last ${formatDay(c.lastActivity!, today)}`}
                        </span>
                      </span>
                      {c.avgRating ? <Stars rating={Math.round(c.avgRating)} /> : null}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <PrivacySection />
        </>
      )}
      <LogSheet log={open} names={names} contacts={byId} today={today} onClose={() => setOpen(null)} />
      <ContactSheet contact={shownContact} open={contactSheet !== null} onClose={() => setContactSheet(null)} />
    </Page>
  );
}

/** Up to three partners' photos (or initials), overlapping, before their names. */
function PartnerFaces({ ids, contacts }: { ids: readonly string[]; contacts: ReadonlyMap<string, Contact> }) {
  const shown = ids.flatMap((id) => contacts.get(id) ?? []).slice(0, 3);
  if (shown.length === 0) return null;
  return (
    <span className="flex shrink-0 -space-x-2">
      {shown.map((c) => (
        <span key={c.id} className="rounded-full ring-2 ring-white">
          <ContactAvatar contact={c} size={28} />
        </span>
      ))}
    </span>
  );
}

function StatsGrid({ stats }: { stats: ActivityStats }) {
  const tiles = [
    { label: 'Total', value: String(stats.totalActivities) },
    { label: 'This week', value: String(stats.thisWeek) },
    { label: 'This month', value: String(stats.thisMonth) },
    { label: 'Partners', value: String(stats.uniquePartners) },
    { label: 'Avg rating', value: stats.averageRating ? stats.averageRating.toFixed(1) : '–' },
  ];
  return (
    <section aria-label="Your stats" className="flex flex-col gap-3 px-4 py-3">
      <dl className="grid grid-cols-3 gap-2">
        {tiles.slice(0, 3).map((t) => (
          <Tile key={t.label} {...t} strong />
        ))}
      </dl>
      <dl className="grid grid-cols-2 gap-2">
        {tiles.slice(3).map((t) => (
          <Tile key={t.label} {...t} />
        ))}
        <Tile label="Favourite activity" value={stats.favoriteActivity} />
        <Tile label="Favourite place" value={stats.favoriteLocation} />
      </dl>
    </section>
  );
}

function Tile({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex flex-col-reverse gap-0.5 rounded-2xl p-3 ${strong ? 'bg-primary-soft' : 'bg-canvas'}`}>
      <dt className="text-xs font-semibold text-muted">{label}</dt>
      <dd className={`truncate font-bold text-ink ${strong ? 'text-2xl' : 'text-base'}`}>{value}</dd>
    </div>
  );
}

function LogSheet({
  log,
  names,
  contacts,
  today,
  onClose,
}: {
  log: ActivityLog | null;
  names: ReadonlyMap<string, string>;
  contacts: ReadonlyMap<string, Contact>;
  today: string;
  onClose: () => void;
}) {
  const del = useDeleteActivityLogMutation();
  const toast = useToast();
  return (
    <Sheet open={log !== null} onClose={onClose} title={log ? formatDay(log.date, today) : 'Activity'}>
      {log ? (
        <div className="flex flex-col gap-4 pb-2">
          {log.partners.some((p) => contacts.has(p)) ? (
            <ul className="flex flex-wrap gap-3" aria-label="Partners">
              {log.partners
                .flatMap((p) => contacts.get(p) ?? [])
                .map((c) => (
                  <li key={c.id} className="flex items-center gap-2 text-sm font-semibold text-ink">
                    <ContactAvatar contact={c} size={36} />
                    {c.name}
                  </li>
                ))}
            </ul>
          ) : null}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-semibold text-muted">With</dt>
            <dd className="text-ink">{log.partners.length ? partnerNames(log, names) : '—'}</dd>
            <dt className="font-semibold text-muted">Where</dt>
            <dd className="text-ink">{log.location ?? '—'}</dd>
            <dt className="font-semibold text-muted">What</dt>
            <dd className="text-ink">{log.activities.length ? log.activities.join(', ') : '—'}</dd>
            <dt className="font-semibold text-muted">Protection</dt>
            <dd>
              <ProtectionPill protection={log.protection} />
            </dd>
            <dt className="font-semibold text-muted">Rating</dt>
            <dd>{log.rating ? <Stars rating={log.rating} /> : '—'}</dd>
            <dt className="font-semibold text-muted">Duration</dt>
            <dd className="text-ink">{log.duration ? formatDuration(log.duration) : '—'}</dd>
          </dl>
          {log.notes ? <p className="rounded-2xl bg-canvas p-3 text-sm whitespace-pre-wrap text-ink">{log.notes}</p> : null}
          <ButtonLink to={`/activity/log?edit=${encodeURIComponent(log.id)}`} variant="secondary" block>
            <EditIcon width={18} height={18} /> Edit entry
          </ButtonLink>
          <Button
            variant="danger"
            block
            loading={del.isPending}
            onClick={() =>
              del.mutate(log.id, {
                onSuccess: () => {
                  toast.success('Entry deleted');
                  onClose();
                },
                onError: (e) => toast.error(errorMessage(e, 'We could not delete this entry. Please try again.')),
              })
            }
          >
            Delete entry
          </Button>
        </div>
      ) : null}
    </Sheet>
  );
}

/** Add, change or remove a contact's photo. The server re-encodes it and serves it to the owner only. */
function ContactPhotoControls({ contact }: { contact: Contact }) {
  const upload = useUploadContactPhotoMutation();
  const update = useUpdateContactMutation();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setError(null);
    upload.mutate(
      { id: contact.id, file },
      {
        onSuccess: () => toast.success('Photo saved'),
        onError: (err) => setError(errorMessage(err, 'We could not upload this photo. Please try again.')),
      },
    );
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <label
          className={`${buttonClass('secondary')} min-h-10 cursor-pointer px-4 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary-strong ${upload.isPending ? 'pointer-events-none opacity-50' : ''}`}
        >
          {upload.isPending ? <Spinner size={18} label="Uploading photo" /> : <CameraIcon width={18} height={18} />}
          {upload.isPending ? 'Uploading…' : contact.photoURL ? 'Change photo' : 'Add photo'}
          <input type="file" accept={PHOTO_ACCEPT} className="sr-only" onChange={onFile} disabled={upload.isPending} />
        </label>
        {contact.photoURL ? (
          <Button
            variant="ghost"
            className="min-h-10 px-4"
            loading={update.isPending}
            onClick={() =>
              update.mutate(
                { id: contact.id, patch: { photoURL: null } },
                {
                  onSuccess: () => toast.success('Photo removed'),
                  onError: (err) => setError(errorMessage(err, 'We could not remove this photo. Please try again.')),
                },
              )
            }
          >
            Remove photo
          </Button>
        ) : null}
      </div>
      <FormError>{error}</FormError>
    </div>
  );
}

function ContactSheet({ open, contact, onClose }: { open: boolean; contact: Contact | null; onClose: () => void }) {
  const create = useCreateContactMutation();
  const update = useUpdateContactMutation();
  const del = useDeleteContactMutation();
  const people = useLinkablePeople();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [editing, setEditing] = useState(false);
  const contactId = contact?.id ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another contact opens, not when this one's data refreshes
  useEffect(() => {
    if (!open) return;
    setEditing(false);
    setError(null);
    setTags(contact?.tags ?? []);
  }, [open, contactId]);

  const linkedName = contact?.userId ? (people.byId.get(contact.userId)?.displayName ?? 'FMK user') : null;

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? '').trim() || null;
    const age = text('age');
    const ageValue = age ? Number(age) : null;
    if (ageValue !== null && (!Number.isInteger(ageValue) || ageValue < 18)) {
      setError(Number.isInteger(ageValue) ? 'Contacts must be 18 or older.' : 'Age must be a whole number.');
      return;
    }
    const body = {
      name: text('name') ?? '',
      nickname: text('nickname'),
      age: ageValue,
      userId: text('userId'),
      phoneNumber: text('phone'),
      notes: text('notes'),
      tags,
    };
    try {
      if (contact) await update.mutateAsync({ id: contact.id, patch: body });
      else await create.mutateAsync(body);
      toast.success(contact ? 'Contact updated' : 'Contact added');
      if (contact) setEditing(false);
      else onClose();
    } catch (err) {
      setError(errorMessage(err, 'We could not save this contact. Please try again.'));
    }
  };

  return (
    <Sheet open={open} onClose={onClose} title={contact ? (editing ? 'Edit contact' : contact.name) : 'Add contact'}>
      {contact && !editing ? (
        <div className="flex flex-col gap-4 pb-2">
          <div className="flex items-center gap-3">
            <ContactAvatar contact={contact} size={64} />
            <div className="flex min-w-0 flex-1 flex-col">
              <span className="text-lg font-semibold text-ink">{contact.name}</span>
              <span className="text-sm text-muted">
                {[contact.nickname, contact.age ? `${contact.age}` : null, contact.phoneNumber].filter(Boolean).join(' · ') ||
                  'No details'}
              </span>
            </div>
            <Button variant="ghost" className="min-h-10 px-3" onClick={() => setEditing(true)}>
              <EditIcon width={18} height={18} /> Edit
            </Button>
          </div>
          <ContactPhotoControls contact={contact} />
          {contact.userId ? (
            <Link
              to={`/profile/${encodeURIComponent(contact.userId)}`}
              className="flex items-center gap-2 rounded-2xl bg-primary-soft px-3 py-2 text-sm text-ink hover:underline focus-visible:outline-3 focus-visible:outline-primary-strong"
            >
              <Pill tone="neutral">On FMK</Pill>
              <span className="font-semibold">{linkedName}</span>
            </Link>
          ) : null}
          <dl className="grid grid-cols-3 gap-2 text-center">
            <div className="flex flex-col-reverse rounded-2xl bg-canvas p-3">
              <dt className="text-xs text-muted">Times</dt>
              <dd className="text-xl font-bold text-ink">{contact.totalActivities}</dd>
            </div>
            <div className="flex flex-col-reverse rounded-2xl bg-canvas p-3">
              <dt className="text-xs text-muted">Avg rating</dt>
              <dd className="text-xl font-bold text-ink">{contact.avgRating?.toFixed(1) ?? '–'}</dd>
            </div>
            <div className="flex flex-col-reverse rounded-2xl bg-canvas p-3">
              <dt className="text-xs text-muted">Last time</dt>
              <dd className="text-sm font-bold text-ink">{contact.lastActivity ?? '–'}</dd>
            </div>
          </dl>
          {contact.tags.length ? <p className="text-sm text-muted">{contact.tags.join(' · ')}</p> : null}
          {contact.notes ? (
            <p className="rounded-2xl bg-canvas p-3 text-sm whitespace-pre-wrap text-ink">{contact.notes}</p>
          ) : null}
          <Button
            variant="danger"
            block
            loading={del.isPending}
            onClick={() =>
              del.mutate(contact.id, {
                onSuccess: () => {
                  toast.success('Contact deleted');
                  onClose();
                },
                onError: (e) => toast.error(errorMessage(e, 'We could not delete this contact. Please try again.')),
              })
            }
          >
            Delete contact
          </Button>
        </div>
      ) : (
        <form key={contact?.id ?? 'new'} onSubmit={submit} className="flex flex-col gap-4 pb-2" noValidate>
          <TextField label="Name" name="name" required maxLength={60} autoComplete="off" defaultValue={contact?.name ?? ''} />
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label="Nickname"
              name="nickname"
              maxLength={60}
              autoComplete="off"
              defaultValue={contact?.nickname ?? ''}
            />
            <TextField
              label="Age"
              name="age"
              type="number"
              inputMode="numeric"
              min={18}
              max={120}
              defaultValue={contact?.age ?? ''}
            />
          </div>
          <TextField
            label="Phone"
            name="phone"
            type="tel"
            maxLength={30}
            autoComplete="off"
            defaultValue={contact?.phoneNumber ?? ''}
          />
          <SelectField
            label="FMK profile (optional)"
            name="userId"
            defaultValue={contact?.userId ?? ''}
            hint={
              people.isError
                ? 'We could not load your matches. You can link one later.'
                : people.isPending
                  ? 'Loading your matches and chats…'
                  : people.people.length === 0 && !contact?.userId
                    ? 'Link someone you have matched or chatted with.'
                    : undefined
            }
          >
            <option value="">Not linked</option>
            {contact?.userId && !people.byId.has(contact.userId) ? <option value={contact.userId}>{linkedName}</option> : null}
            {people.people.map((p) => (
              <option key={p.uid} value={p.uid}>
                {p.displayName}
              </option>
            ))}
          </SelectField>
          <ChipInput
            label="Tags"
            values={tags}
            onChange={setTags}
            maxLength={30}
            suggestions={['Regular', 'Top', 'Bottom', 'Vers', 'Friend']}
          />
          <TextArea label="Notes" name="notes" maxLength={2000} defaultValue={contact?.notes ?? ''} />
          <FormError>{error}</FormError>
          <Button type="submit" block loading={create.isPending || update.isPending}>
            Save contact
          </Button>
          {contact ? (
            <Button variant="ghost" block onClick={() => setEditing(false)}>
              Cancel
            </Button>
          ) : null}
        </form>
      )}
    </Sheet>
  );
}
