import { ACTIVITY_SUGGESTIONS, type ActivityLog, type Contact, PROTECTION, type Protection } from '@fmk/core';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { ChipInput } from '../../ui/ChipInput.tsx';
import { ErrorState, LoadError } from '../../ui/ErrorState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { PlusIcon, StarIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Segmented, ToggleChips } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { localNow } from '../health/queries.ts';
import { PROTECTION_LABEL } from './parts.tsx';
import {
  useActivityLogsQuery,
  useContactsQuery,
  useDeleteActivityLogMutation,
  useLogActivityMutation,
  useUpdateActivityLogMutation,
} from './queries.ts';

const PROTECTION_OPTIONS = PROTECTION.map((p) => ({ value: p, label: p === 'not-applicable' ? 'N/A' : PROTECTION_LABEL[p] }));

/**
 * /activity/log: record an encounter: when, with whom (contacts, or new ones), where, what, how it
 * went. /activity/log?edit=<id> opens a logged entry in the same form (no route of its own).
 */
export function ActivityLogScreen() {
  const [params] = useSearchParams();
  const editId = params.get('edit');
  const contacts = useContactsQuery();
  const logs = useActivityLogsQuery();
  const title = editId ? 'Edit activity' : 'Log activity';

  if (contacts.isError || (editId && logs.isError)) {
    return (
      <Page title={title} back="/activity">
        <LoadError
          title={editId ? "We couldn't load this entry" : "We couldn't load your contacts"}
          onRetry={() => Promise.all([contacts.refetch(), logs.refetch()])}
        />
      </Page>
    );
  }
  if (contacts.isPending || (editId && logs.isPending)) {
    return (
      <Page title={title} back="/activity">
        <div className="flex justify-center py-16">
          <Spinner label={editId ? 'Loading the entry' : 'Loading your contacts'} />
        </div>
      </Page>
    );
  }
  const entry = editId ? logs.data?.find((l) => l.id === editId) : undefined;
  if (editId && !entry) {
    return (
      <Page title={title} back="/activity">
        <ErrorState
          title="This entry no longer exists"
          body="It may have been deleted on another device."
          actions={<ButtonLink to="/activity">Back to Activity</ButtonLink>}
        />
      </Page>
    );
  }
  return (
    <Page title={title} back="/activity">
      <LogForm key={entry?.id ?? 'new'} contacts={contacts.data} logs={logs.data ?? []} entry={entry ?? null} />
    </Page>
  );
}

function LogForm({
  contacts,
  logs,
  entry,
}: {
  contacts: readonly Contact[];
  logs: readonly ActivityLog[];
  entry: ActivityLog | null;
}) {
  const today = localNow().date;
  const [date, setDate] = useState(entry?.date ?? today);
  // Partners of an entry whose contact was deleted since stay on it (the server allows that).
  const [partners, setPartners] = useState<string[]>(entry?.partners ?? []);
  const [newPartners, setNewPartners] = useState<string[]>([]);
  const [newName, setNewName] = useState('');
  const [location, setLocation] = useState(entry?.location ?? '');
  const [activities, setActivities] = useState<string[]>(entry?.activities ?? []);
  const [rating, setRating] = useState<number | null>(entry?.rating ?? null);
  const [duration, setDuration] = useState(entry?.duration ? String(entry.duration) : '');
  const [protection, setProtection] = useState<Protection | null>(entry?.protection ?? null);
  const [notes, setNotes] = useState(entry?.notes ?? '');
  const [error, setError] = useState<string | null>(null);
  const create = useLogActivityMutation();
  const update = useUpdateActivityLogMutation();
  const del = useDeleteActivityLogMutation();
  const navigate = useNavigate();
  const toast = useToast();
  const places = [...new Set(logs.flatMap((l) => (l.location ? [l.location] : [])))].slice(0, 10);
  const placesId = useId();
  const removed = partners.filter((p) => !contacts.some((c) => c.id === p));

  const addNew = () => {
    const name = newName.trim();
    if (name && !newPartners.some((n) => n.toLowerCase() === name.toLowerCase())) setNewPartners([...newPartners, name]);
    setNewName('');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!protection) {
      setError('Choose protected, unprotected or not applicable.');
      return;
    }
    if (date > today) {
      setError('Choose a date that is not in the future.');
      return;
    }
    const minutes = duration ? Number(duration) : null;
    if (minutes !== null && (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440)) {
      setError('Use between 1 and 1440 whole minutes.');
      return;
    }
    const log = {
      date,
      partners,
      location: location.trim() || null,
      activities,
      rating,
      duration: minutes,
      protection,
      notes: notes.trim() || null,
    };
    try {
      if (entry) await update.mutateAsync({ id: entry.id, log, newPartners });
      else await create.mutateAsync({ log, newPartners });
      toast.success(entry ? 'Entry updated' : 'Activity logged');
      navigate('/activity');
    } catch (err) {
      setError(errorMessage(err, 'We could not save this entry. Please try again.'));
    }
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-5 px-4 pt-2 pb-6" noValidate>
      <TextField label="Date" type="date" value={date} max={today} required onChange={(e) => setDate(e.target.value)} />

      <div className="flex flex-col gap-3">
        {contacts.length || removed.length ? (
          <ToggleChips
            label="Partners"
            options={[
              ...contacts.map((c) => ({ value: c.id, label: c.nickname ? `${c.name} (${c.nickname})` : c.name })),
              ...removed.map((id) => ({ value: id, label: 'Removed contact' })),
            ]}
            selected={partners}
            onToggle={(id) => setPartners((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]))}
          />
        ) : null}
        {newPartners.length ? (
          <ToggleChips
            label="New contacts"
            options={newPartners.map((n) => ({ value: n, label: n }))}
            selected={newPartners}
            onToggle={(n) => setNewPartners((p) => p.filter((x) => x !== n))}
          />
        ) : null}
        <div className="flex items-end gap-2">
          <div className="flex-1">
            <TextField
              label={contacts.length ? 'Someone new' : 'Partner'}
              value={newName}
              maxLength={60}
              autoComplete="off"
              placeholder="Name or nickname"
              onChange={(e) => setNewName(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addNew();
                }
              }}
            />
          </div>
          <Button variant="secondary" aria-label="Add partner" onClick={addNew} disabled={!newName.trim()}>
            <PlusIcon width={18} height={18} /> Add
          </Button>
        </div>
      </div>

      <div>
        <TextField
          label="Location"
          value={location}
          maxLength={120}
          list={placesId}
          autoComplete="off"
          placeholder="e.g. My place, hotel, sauna"
          onChange={(e) => setLocation(e.target.value)}
        />
        <datalist id={placesId}>
          {places.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
      </div>

      <ChipInput label="Activities" values={activities} onChange={setActivities} suggestions={ACTIVITY_SUGGESTIONS} />

      <Segmented label="Protection" options={PROTECTION_OPTIONS} value={protection} onChange={setProtection} />

      <StarInput value={rating} onChange={setRating} />

      <TextField
        label="Duration (minutes)"
        type="number"
        inputMode="numeric"
        min={1}
        max={1440}
        value={duration}
        onChange={(e) => setDuration(e.target.value)}
      />
      <TextArea label="Notes" value={notes} maxLength={2000} onChange={(e) => setNotes(e.target.value)} />

      <FormError>{error}</FormError>
      <Button type="submit" block loading={create.isPending || update.isPending}>
        {entry ? 'Save changes' : 'Save entry'}
      </Button>
      {entry ? (
        <Button
          variant="danger"
          block
          loading={del.isPending}
          onClick={() =>
            del.mutate(entry.id, {
              onSuccess: () => {
                toast.success('Entry deleted');
                navigate('/activity');
              },
              onError: (err) => setError(errorMessage(err, 'We could not delete this entry. Please try again.')),
            })
          }
        >
          Delete entry
        </Button>
      ) : null}
    </form>
  );
}

/** A 1–5 rating as native radios styled as stars; choosing the same star again clears it. */
function StarInput({ value, onChange }: { value: number | null; onChange: (v: number | null) => void }) {
  const name = useId();
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-ink">Rating</legend>
      <div className="flex gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="cursor-pointer rounded-full p-1.5 text-amber-500 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-primary-strong"
          >
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              onClick={() => {
                if (value === n) onChange(null);
              }}
              className="sr-only"
              aria-label={`${n} ${n === 1 ? 'star' : 'stars'}`}
            />
            <StarIcon
              width={32}
              height={32}
              fill={value !== null && n <= value ? 'currentColor' : 'none'}
              className={value !== null && n <= value ? '' : 'text-[#b8b8c2]'}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
