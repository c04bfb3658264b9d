import { ACTIVITY_SUGGESTIONS, PROTECTION, type Protection } from '@fmk/core';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { ChipInput } from '../../ui/ChipInput.tsx';
import { ErrorState } from '../../ui/ErrorState.tsx';
import { PlusIcon, StarIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Segmented, ToggleChips } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { localNow } from '../health/queries.ts';
import { PROTECTION_LABEL } from './parts.tsx';
import { useActivityLogsQuery, useContactsQuery, useLogActivityMutation } from './queries.ts';

const PROTECTION_OPTIONS = PROTECTION.map((p) => ({ value: p, label: p === 'not-applicable' ? 'N/A' : PROTECTION_LABEL[p] }));

/** /activity/log: record an encounter: when, with whom (contacts, or new ones), where, what, how it went. */
export function ActivityLogScreen() {
  const contacts = useContactsQuery();
  const logs = useActivityLogsQuery();
  const today = localNow().date;
  const [date, setDate] = useState(today);
  const [partners, setPartners] = useState<string[]>([]);
  const [newPartners, setNewPartners] = useState<string[]>([]);
  const [newName, setNewName] = useState('');
  const [location, setLocation] = useState('');
  const [activities, setActivities] = useState<string[]>([]);
  const [rating, setRating] = useState<number | null>(null);
  const [duration, setDuration] = useState('');
  const [protection, setProtection] = useState<Protection | null>(null);
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useLogActivityMutation();
  const navigate = useNavigate();
  const toast = useToast();
  const places = [...new Set((logs.data ?? []).flatMap((l) => (l.location ? [l.location] : [])))].slice(0, 10);
  const placesId = useId();

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
    const minutes = duration ? Number.parseInt(duration, 10) : null;
    try {
      await save.mutateAsync({
        log: {
          date,
          partners,
          location: location.trim() || null,
          activities,
          rating,
          duration: minutes && minutes > 0 ? minutes : null,
          protection,
          notes: notes.trim() || null,
        },
        newPartners,
      });
      toast.success('Activity logged');
      navigate('/activity');
    } catch (err) {
      setError(errorMessage(err, 'We could not save this entry. Please try again.'));
    }
  };

  if (contacts.isError) {
    return (
      <Page title="Log activity" back="/activity">
        <ErrorState
          title="We couldn't load your contacts"
          body="Check your connection and try again."
          actions={<Button onClick={() => void contacts.refetch()}>Try again</Button>}
        />
      </Page>
    );
  }

  return (
    <Page title="Log activity" back="/activity">
      {contacts.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading your contacts" />
        </div>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-5 px-4 pt-2 pb-6" noValidate>
          <TextField label="Date" type="date" value={date} max={today} required onChange={(e) => setDate(e.target.value)} />

          <div className="flex flex-col gap-3">
            {contacts.data.length ? (
              <ToggleChips
                label="Partners"
                options={contacts.data.map((c) => ({ value: c.id, label: c.nickname ? `${c.name} (${c.nickname})` : c.name }))}
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
                  label={contacts.data.length ? 'Someone new' : 'Partner'}
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

          {error ? (
            <p role="alert" className="text-sm font-medium text-primary-strong">
              {error}
            </p>
          ) : null}
          <Button type="submit" block loading={save.isPending}>
            Save entry
          </Button>
        </form>
      )}
    </Page>
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
